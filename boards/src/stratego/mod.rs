//! Classic Stratego and Stratego Duel.
