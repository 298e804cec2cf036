/**
 * The layout of the tables that hold a profile's records by the thousand (transaction, balance,
 * holding, investment_transaction): hashed by `profile_id` into 32 partitions, so every read of a
 * profile's rows prunes to one partition and each partition is vacuumed on its own; the same key
 * shards them later (docs/scaling.md, docs/decisions/partitions-by-profile.md). Primary and unique
 * keys carry `profile_id`, as PostgreSQL requires of a partitioned table's keys.
 */
export const PROFILE_PARTITIONS = { type: 'hash', expression: 'profile_id', partitions: 32 } as const;
