//! The partition of a search into shards against the whole search.
