// n8n 2.x takes a typed failure cause on NodeApiError / NodeOperationError (`failure`) and
// classifies failed executions and poll ticks by it; n8n 1.x ignores the option, which harms
// nothing there. Our own code that branches on the cause (the trigger telling a refunded
// licence from revoked access) must not depend on it: the cause is also noted here, on every engine.
type Cause = { cause: string };

const causes = new WeakMap<object, Cause>();

/** Notes the cause passed to n8n with `error`, and returns the error. */
export function noteCause<E extends object>(error: E, failure: Cause | undefined): E {
	if (failure) causes.set(error, failure);
	return error;
}

/** The failure cause of an error from the transport: n8n's own field where n8n keeps it, else ours. */
export function failureCause(error: unknown): string | undefined {
	if (!error || typeof error !== 'object') return undefined;
	return (error as { failure?: Cause }).failure?.cause ?? causes.get(error)?.cause;
}
