// The hashing thread's OS priority (hash.worker.ts), apart so that a test can read it without
// starting a worker's code. Nice 10 gives the page thread ten times the hashing thread's share of a
// busy core; nice 19 starved logins altogether on a machine busy with other work (a shared host, CI).
export const HASH_NICE = 10;
