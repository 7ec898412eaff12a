// A storage response body as the transfer code sees it, and the error of a transfer that broke:
// the rate watch (deadlines.ts) cuts bodies with it, the download (../download/) resumes on it.

/** The transfer broke or ended early; retried by resuming or restarting, then reported. */
export class TransferError extends Error {}

/** A storage response body, as the download bodies use it. */
export interface Body {
	on(event: string, listener: (...args: never[]) => void): unknown;
	removeListener(event: string, listener: (...args: never[]) => void): unknown;
	pause(): unknown;
	resume(): unknown;
	destroy(error?: Error): unknown;
	/** Set once the body was destroyed (on a premature close too), after which it emits nothing more. */
	readonly destroyed?: boolean;
}
