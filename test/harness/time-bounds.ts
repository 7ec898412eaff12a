// How a test tells "ended at once" from "sat out a long wait" without asserting speed: a
// loaded 2-core machine (load average 10, CPU hogs beside the suite) stretches everything it
// runs, so the bound sits far above what the work takes and far below the wait it rules out.
// A test using it makes that wait 50 s or more (a 60 s Retry-After, a body that would take
// minutes); timings themselves belong to the benchmark (bench/).

/** A cancel, or a refusal before a body is read, ends within this. */
export const PROMPTLY_MS = 15_000;

/**
 * A wait a server asked for (a Retry-After of a few seconds) or a short backoff ended within
 * this: far above the wait itself, far below the minute or hour a wrong reading (a Reset taken
 * at face value, a 60 s cap) would sit out. The lower bound is the wait itself.
 */
export const ASKED_WAIT_CEILING_MS = 15_000;
