//! Several pieces on one place, bottom to top, with a per-kind limit (Piecepack at Waterloo).
//!
//! A [`Stack`] holds at most `N` items in a fixed array, with no heap, so a board can keep one per
//! square. Which items may share a place is a [`StackRule`]: it sorts items into categories, each
//! with a limit. Piecepack at Waterloo allows three pieces on a square, but only one regular
//! piece, one symbol piece and one leader pawn.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::game::Problems;

/// Up to `N` items on one place, in the order they were put there (bottom first).
///
/// ```
/// use boards::geometry::stack::Stack;
///
/// let mut square: Stack<&str, 3> = Stack::new();
/// square.push("Old Guard").unwrap();
/// square.push("Napoleon").unwrap();
/// assert_eq!(square.top(), Some(&"Napoleon"));
/// assert_eq!(square.take(|p| *p == "Old Guard"), Some("Old Guard"));
/// assert_eq!(square.len(), 1);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Stack<T, const N: usize> {
    /// `items[..len]` are all `Some`, the rest `None`.
    items: [Option<T>; N],
    len: usize,
}

/// Why [`Stack::push`] refused: the stack already holds all it can. The item comes back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Full<T> {
    /// The item that did not fit.
    pub item: T,
    /// How many the stack holds.
    pub capacity: usize,
}

impl<T> fmt::Display for Full<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no room: {} pieces are here already, the most that fit; take one off first",
            self.capacity
        )
    }
}

#[cfg(feature = "std")]
impl<T: fmt::Debug> std::error::Error for Full<T> {}

impl<T, const N: usize> Stack<T, N> {
    /// An empty stack.
    pub const fn new() -> Self {
        Stack {
            items: [const { None }; N],
            len: 0,
        }
    }

    /// The most items it holds: `N`.
    pub const fn capacity(&self) -> usize {
        N
    }

    /// How many items it holds.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds nothing.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether it holds `N` items.
    pub const fn is_full(&self) -> bool {
        self.len == N
    }

    /// The item at `index`, counting from the bottom at 0.
    pub fn get(&self, index: usize) -> Option<&T> {
        self.items.get(index)?.as_ref()
    }

    /// The item at the bottom (put there first).
    pub fn bottom(&self) -> Option<&T> {
        self.get(0)
    }

    /// The item on top (put there last).
    pub fn top(&self) -> Option<&T> {
        self.get(self.len.checked_sub(1)?)
    }

    /// The items, bottom to top.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + '_ {
        self.into_iter()
    }

    /// Whether `item` is here.
    pub fn contains(&self, item: &T) -> bool
    where
        T: PartialEq,
    {
        self.iter().any(|i| i == item)
    }

    /// Puts `item` on top, whatever it is.
    ///
    /// # Errors
    /// [`Full`], giving `item` back, when `N` items are here already.
    pub fn push(&mut self, item: T) -> Result<(), Full<T>> {
        match self.items.get_mut(self.len) {
            Some(slot) => {
                *slot = Some(item);
                self.len += 1;
                Ok(())
            }
            None => Err(Full { item, capacity: N }),
        }
    }

    /// Takes the top item off.
    pub fn pop(&mut self) -> Option<T> {
        let top = self.len.checked_sub(1)?;
        self.len = top;
        self.items[top].take()
    }

    /// Takes off the item at `index` (from the bottom at 0); those above keep their order.
    pub fn remove(&mut self, index: usize) -> Option<T> {
        if index >= self.len {
            return None;
        }
        let item = self.items[index].take();
        self.items[index..self.len].rotate_left(1);
        self.len -= 1;
        item
    }

    /// Takes off the lowest item for which `pred` is true; the others keep their order.
    pub fn take(&mut self, pred: impl FnMut(&T) -> bool) -> Option<T> {
        let index = self.iter().position(pred)?;
        self.remove(index)
    }

    /// Takes every item off.
    pub fn clear(&mut self) {
        self.items.iter_mut().for_each(|i| *i = None);
        self.len = 0;
    }

    /// How many items here fall in `category` under `rule`.
    pub fn count_of<R: StackRule<T>>(&self, rule: &R, category: R::Category) -> usize {
        self.iter().filter(|i| rule.category(i) == category).count()
    }

    /// Whether `item` could be put on top under `rule`, without putting it there.
    ///
    /// # Errors
    /// The first limit it would break: the stack's size, then its category's limit.
    pub fn check<R: StackRule<T>>(
        &self,
        rule: &R,
        item: &T,
    ) -> Result<(), StackProblem<R::Category>> {
        if self.is_full() {
            return Err(StackProblem::TooMany {
                count: N + 1,
                capacity: N,
            });
        }
        let category = rule.category(item);
        let count = self.count_of(rule, category) + 1;
        let limit = rule.limit(category);
        if count > limit {
            return Err(StackProblem::TooManyOf {
                category,
                count,
                limit,
            });
        }
        Ok(())
    }

    /// Puts `item` on top if `rule` allows it.
    ///
    /// # Errors
    /// [`Refused`], giving `item` back with the limit it would break.
    pub fn try_push<R: StackRule<T>>(
        &mut self,
        item: T,
        rule: &R,
    ) -> Result<(), Refused<T, R::Category>> {
        match self.check(rule, &item) {
            Ok(()) => self.push(item).map_err(|Full { item, capacity }| Refused {
                item,
                problem: StackProblem::TooMany {
                    count: capacity + 1,
                    capacity,
                },
            }),
            Err(problem) => Err(Refused { item, problem }),
        }
    }

    /// A stack of `items`, bottom first, if they all fit and `rule` allows them together.
    ///
    /// For untrusted data (a layout, a set-up): `()` as the rule checks the size only.
    ///
    /// # Errors
    /// Every limit broken, at once: the size, then each over-full category in the order it first
    /// appears.
    pub fn from_items<R: StackRule<T>>(
        items: impl IntoIterator<Item = T>,
        rule: &R,
    ) -> Result<Self, Problems<StackProblem<R::Category>>> {
        let items: Vec<T> = items.into_iter().collect();
        let categories: Vec<R::Category> = items.iter().map(|i| rule.category(i)).collect();
        let mut problems = Vec::new();
        if items.len() > N {
            problems.push(StackProblem::TooMany {
                count: items.len(),
                capacity: N,
            });
        }
        for (at, &category) in categories.iter().enumerate() {
            if categories[..at].contains(&category) {
                continue;
            }
            let count = categories.iter().filter(|&&c| c == category).count();
            let limit = rule.limit(category);
            if count > limit {
                problems.push(StackProblem::TooManyOf {
                    category,
                    count,
                    limit,
                });
            }
        }
        let mut stack = Stack::new();
        if problems.is_empty() {
            for item in items {
                // Cannot fail: there are at most N.
                let _ = stack.push(item);
            }
        }
        Problems(problems).into_result(stack)
    }
}

impl<T, const N: usize> Default for Stack<T, N> {
    fn default() -> Self {
        Stack::new()
    }
}

impl<T: fmt::Debug, const N: usize> fmt::Debug for Stack<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a Stack<T, N> {
    type Item = &'a T;
    type IntoIter =
        core::iter::FilterMap<core::slice::Iter<'a, Option<T>>, fn(&'a Option<T>) -> Option<&'a T>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items[..self.len].iter().filter_map(Option::as_ref)
    }
}

/// Serializes as a sequence, bottom first.
impl<T: Serialize, const N: usize> Serialize for Stack<T, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// Deserializes from a sequence of at most `N` items, bottom first. Only the size is checked:
/// check category limits of untrusted data with [`Stack::from_items`].
impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for Stack<T, N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Items<T, const N: usize>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for Items<T, N> {
            type Value = Stack<T, N>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a list of at most {N} pieces")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut stack = Stack::new();
                while let Some(item) = seq.next_element()? {
                    if stack.push(item).is_err() {
                        return Err(serde::de::Error::invalid_length(N + 1, &self));
                    }
                }
                Ok(stack)
            }
        }

        deserializer.deserialize_seq(Items::<T, N>(PhantomData))
    }
}

/// Which items may share a place: each item has a category, each category a limit.
///
/// ```
/// use boards::geometry::stack::{Stack, StackRule};
///
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// enum Kind { Regular, Symbol, Leader }
///
/// /// Piecepack at Waterloo: one of each kind on a square.
/// struct OneOfEach;
///
/// impl StackRule<Kind> for OneOfEach {
///     type Category = Kind;
///     fn category(&self, item: &Kind) -> Kind { *item }
///     fn limit(&self, _: Kind) -> usize { 1 }
/// }
///
/// let mut square: Stack<Kind, 3> = Stack::new();
/// assert!(square.try_push(Kind::Leader, &OneOfEach).is_ok());
/// assert!(square.try_push(Kind::Regular, &OneOfEach).is_ok());
/// assert!(square.try_push(Kind::Leader, &OneOfEach).is_err());
/// ```
pub trait StackRule<T> {
    /// The kinds of item the rule tells apart. Its `Display` (when it has one) names the kind in
    /// messages: "2 leader pieces here".
    type Category: Copy + Eq;

    /// The category of `item`.
    fn category(&self, item: &T) -> Self::Category;

    /// The most items of `category` that may share a place.
    fn limit(&self, category: Self::Category) -> usize;
}

/// No limit beyond the stack's own size.
impl<T> StackRule<T> for () {
    type Category = ();

    fn category(&self, _item: &T) {}

    fn limit(&self, _category: ()) -> usize {
        usize::MAX
    }
}

/// A limit a stack, or a would-be stack, breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StackProblem<C> {
    /// More items than the stack holds.
    TooMany {
        /// How many there would be.
        count: usize,
        /// How many fit.
        capacity: usize,
    },
    /// More items of one category than the rule allows.
    TooManyOf {
        /// The category.
        category: C,
        /// How many there would be.
        count: usize,
        /// How many the rule allows.
        limit: usize,
    },
}

impl<C: fmt::Display> fmt::Display for StackProblem<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StackProblem::TooMany { count, capacity } => write!(
                f,
                "{count} pieces here, at most {capacity} fit; take {} off",
                count.saturating_sub(*capacity)
            ),
            StackProblem::TooManyOf {
                category,
                count,
                limit,
            } => write!(
                f,
                "{count} {category} pieces here, at most {limit} may share a place; take {} off",
                count.saturating_sub(*limit)
            ),
        }
    }
}

#[cfg(feature = "std")]
impl<C: fmt::Display + fmt::Debug> std::error::Error for StackProblem<C> {}

/// Why [`Stack::try_push`] refused: the limit broken, and the item given back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Refused<T, C> {
    /// The item that was not put on.
    pub item: T,
    /// The limit it would have broken.
    pub problem: StackProblem<C>,
}

impl<T, C: fmt::Display> fmt::Display for Refused<T, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.problem.fmt(f)
    }
}

#[cfg(feature = "std")]
impl<T: fmt::Debug, C: fmt::Display + fmt::Debug> std::error::Error for Refused<T, C> {}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::ToString;
    use alloc::vec;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Kind {
        Regular,
        Symbol,
        Leader,
    }

    impl fmt::Display for Kind {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(match self {
                Kind::Regular => "regular",
                Kind::Symbol => "symbol",
                Kind::Leader => "leader",
            })
        }
    }

    /// A piece: its name and kind.
    type Piece = (&'static str, Kind);

    /// Piecepack at Waterloo: one regular piece, one symbol piece, one leader pawn.
    struct Waterloo;

    impl StackRule<Piece> for Waterloo {
        type Category = Kind;
        fn category(&self, item: &Piece) -> Kind {
            item.1
        }
        fn limit(&self, _: Kind) -> usize {
            1
        }
    }

    const NAPOLEON: Piece = ("Napoleon", Kind::Leader);
    const NEY: Piece = ("Ney", Kind::Leader);
    const GUARD: Piece = ("Old Guard", Kind::Regular);
    const YOUNG: Piece = ("Young Guard", Kind::Regular);
    const GUNS: Piece = ("Guard artillery", Kind::Symbol);

    #[test]
    fn keeps_order_bottom_to_top() {
        let mut s: Stack<u8, 3> = Stack::new();
        assert!(s.is_empty());
        assert_eq!(s.push(1), Ok(()));
        assert_eq!(s.push(2), Ok(()));
        assert_eq!(s.push(3), Ok(()));
        assert!(s.is_full());
        assert_eq!(
            s.push(4),
            Err(Full {
                item: 4,
                capacity: 3
            })
        );
        assert_eq!(s.iter().copied().collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!((s.bottom(), s.top(), s.get(3)), (Some(&1), Some(&3), None));
        assert_eq!(s.remove(1), Some(2));
        assert_eq!(s.iter().copied().collect::<Vec<_>>(), [1, 3]);
        assert_eq!(s.remove(2), None);
        assert_eq!(s.push(5), Ok(()));
        assert_eq!(format!("{s:?}"), "[1, 3, 5]");
        assert_eq!(s.take(|&i| i > 1), Some(3));
        assert_eq!(s.pop(), Some(5));
        assert_eq!(s.pop(), Some(1));
        assert_eq!(s.pop(), None);
        assert_eq!(s, Stack::default());
        assert_eq!(
            Full {
                item: 4,
                capacity: 3
            }
            .to_string(),
            "no room: 3 pieces are here already, the most that fit; take one off first"
        );
    }

    #[test]
    fn equal_contents_are_equal_stacks() {
        let mut a: Stack<u8, 2> = Stack::new();
        let mut b: Stack<u8, 2> = Stack::new();
        let _ = (a.push(7), a.push(8), a.pop(), b.push(7));
        assert_eq!(a, b);
        assert!(a.contains(&7) && !a.contains(&8));
        a.clear();
        assert_eq!(a.len(), 0);
    }

    #[test]
    fn try_push_names_the_limit_it_would_break() {
        let mut square: Stack<Piece, 3> = Stack::new();
        assert!(square.try_push(GUARD, &Waterloo).is_ok());
        assert!(square.try_push(NAPOLEON, &Waterloo).is_ok());
        let refused = square.try_push(NEY, &Waterloo);
        assert_eq!(
            refused,
            Err(Refused {
                item: NEY,
                problem: StackProblem::TooManyOf {
                    category: Kind::Leader,
                    count: 2,
                    limit: 1
                }
            })
        );
        assert_eq!(
            refused.map_err(|r| r.to_string()),
            Err("2 leader pieces here, at most 1 may share a place; take 1 off".to_string())
        );
        assert_eq!(square.check(&Waterloo, &GUNS), Ok(()));
        assert!(square.try_push(GUNS, &Waterloo).is_ok());
        assert_eq!(square.count_of(&Waterloo, Kind::Symbol), 1);
        assert_eq!(
            square.check(&(), &YOUNG),
            Err(StackProblem::TooMany {
                count: 4,
                capacity: 3
            })
        );
        assert_eq!(
            square.iter().map(|p| p.0).collect::<Vec<_>>(),
            ["Old Guard", "Napoleon", "Guard artillery"]
        );
    }

    #[test]
    fn from_items_reports_every_broken_limit() {
        let bad = Stack::<Piece, 3>::from_items([NAPOLEON, GUARD, NEY, YOUNG, GUNS], &Waterloo);
        let Err(problems) = bad else {
            panic!("five pieces were accepted on one square");
        };
        assert_eq!(
            problems.0,
            vec![
                StackProblem::TooMany {
                    count: 5,
                    capacity: 3
                },
                StackProblem::TooManyOf {
                    category: Kind::Leader,
                    count: 2,
                    limit: 1
                },
                StackProblem::TooManyOf {
                    category: Kind::Regular,
                    count: 2,
                    limit: 1
                },
            ]
        );
        assert_eq!(
            problems.to_string(),
            "3 problems: 5 pieces here, at most 3 fit; take 2 off; \
             2 leader pieces here, at most 1 may share a place; take 1 off; \
             2 regular pieces here, at most 1 may share a place; take 1 off"
        );
        let good = Stack::<Piece, 3>::from_items([GUNS, NAPOLEON], &Waterloo);
        assert_eq!(
            good.map(|s| s.iter().copied().collect::<Vec<_>>()),
            Ok(vec![GUNS, NAPOLEON])
        );
        assert!(Stack::<u8, 2>::from_items([1, 1], &()).is_ok());
    }

    #[test]
    fn deserializes_only_what_fits() {
        use serde::de::value::{Error, SeqDeserializer};
        let read = |v: Vec<u8>| {
            Stack::<u8, 2>::deserialize(SeqDeserializer::<_, Error>::new(v.into_iter()))
        };
        assert_eq!(
            read(vec![4, 5]).map(|s| s.iter().copied().collect::<Vec<_>>()),
            Ok(vec![4, 5])
        );
        let too_many = read(vec![1, 2, 3]).map_err(|e| e.to_string());
        assert_eq!(
            too_many,
            Err("invalid length 3, expected a list of at most 2 pieces".to_string())
        );
    }
}
