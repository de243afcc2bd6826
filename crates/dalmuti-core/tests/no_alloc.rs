//! The play path allocates nothing: listing the legal actions, choosing
//! one and applying it stay on the stack, so millions of simulated hands do
//! not touch the allocator once a hand is dealt.

// A counting allocator has to implement the unsafe `GlobalAlloc` trait; it
// only forwards to the system allocator.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use dalmuti_core::{DealRng, Hand, Rules, Seed, Stage};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Plays `hands` hands of `players` players with the given choice of action
/// and returns how many allocations happened during play (after taxes).
fn allocations_in_play(
    rules: Rules,
    players: usize,
    hands: u64,
    choose: fn(&Hand, dalmuti_core::Seat, u64) -> dalmuti_core::Action,
) -> usize {
    let mut rng = DealRng::new(Seed::from(players as u64));
    let mut total = 0;
    for h in 0..hands {
        let mut hand = Hand::deal(rules, players, false, &mut rng);
        while hand.stage() != Stage::Play {
            let seat = hand.next_to_act().unwrap();
            hand.apply(seat, hand.worst_legal(seat).unwrap()).unwrap();
        }
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let mut step = h;
        while let Some(seat) = hand.next_to_act() {
            step = step
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let action = choose(&hand, seat, step);
            hand.apply(seat, action).unwrap();
        }
        total += ALLOCATIONS.load(Ordering::Relaxed) - before;
    }
    total
}

#[test]
fn playing_a_hand_does_not_allocate() {
    let worst = |hand: &Hand, seat, _| hand.worst_legal(seat).unwrap();
    let random = |hand: &Hand, seat, r: u64| {
        let legal = hand.legal_actions(seat);
        legal[(r >> 33) as usize % legal.len()]
    };
    let corporate = Rules {
        variant: dalmuti_core::Variant::CorporateShuffle,
        ..Rules::default()
    };
    for (rules, players) in [3, 5, 8, 16]
        .map(|n| (Rules::default(), n))
        .into_iter()
        .chain([3, 5, 8].map(|n| (corporate, n)))
    {
        let game = rules.variant;
        assert_eq!(
            allocations_in_play(rules, players, 300, worst),
            0,
            "{game}, {players} players, worst set"
        );
        assert_eq!(
            allocations_in_play(rules, players, 300, random),
            0,
            "{game}, {players} players, random"
        );
    }
}
