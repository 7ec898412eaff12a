// GridBank's Partner rate window on a shorter clock, for tests and the benchmark that shorten the
// simulator's window too. The window's one home is the API profile (no setter ships in the
// package), so it is shortened there, on the object every node of this process reads, and put back.
import { PARTNER } from '../../nodes/GridBankPartner/transport/profile';

/** GridBank's own window: one minute. */
export const PARTNER_WINDOW_MS = PARTNER.rateWindowMs;

/** The Partner profile's rate window from now on (GridBank's own without an argument). */
export function setPartnerWindow(ms = PARTNER_WINDOW_MS): void {
	PARTNER.rateWindowMs = ms;
}
