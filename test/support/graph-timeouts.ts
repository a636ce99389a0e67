/**
 * The shared test stack's Graph API timeout (GRAPH_API_TIMEOUT_MS; production's is 5 s): short, so the tests of a
 * timeout are quick, yet three times a loaded machine's longest stall seen, so no other test meets it by chance
 * (at 1 s, dry runs and syncs answered 502 in a full run of the suite).
 */
export const STACK_GRAPH_TIMEOUT_MS = 3_000;

/** An emulator fault's delay that runs past that timeout: a test of the timeout waits this long. */
export const PAST_GRAPH_TIMEOUT_MS = STACK_GRAPH_TIMEOUT_MS + 1_000;
