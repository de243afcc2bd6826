// The views that the connection and the dialogs tell of what changed,
// set once at start-up (main.js): so the modules below the table (the
// connection, the hand, the dialogs) call the table's views without
// importing them, and no two modules import each other.

/** The views: render, renderOffline, renderActions, renderDecision, ... */
export const views = {};

/** Registers the views (main.js, before anything connects). */
export function setViews(found) {
  Object.assign(views, found);
}
