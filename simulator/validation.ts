/** FastAPI / pydantic v2 style 422 bodies: {"detail": [{loc, msg, type, input, ctx}]}. */

export interface ValidationIssue {
	loc: Array<string | number>;
	msg: string;
	type: string;
	input?: unknown;
	ctx?: Record<string, unknown>;
}

export class Validator {
	readonly issues: ValidationIssue[] = [];

	constructor(private readonly query: URLSearchParams) {}

	/** Last value of a repeated parameter, as FastAPI does for scalars. */
	raw(name: string): string | undefined {
		const all = this.query.getAll(name);
		return all.length ? all[all.length - 1] : undefined;
	}

	int(
		name: string,
		o: { ge?: number; le?: number; default?: number; required?: boolean },
	): number | undefined {
		const raw = this.raw(name);
		if (raw === undefined) {
			if (o.required)
				this.issues.push({
					loc: ['query', name],
					msg: 'Field required',
					type: 'missing',
					input: null,
				});
			return o.default;
		}
		if (!/^\s*[+-]?\d+\s*$/.test(raw)) {
			this.issues.push({
				loc: ['query', name],
				msg: 'Input should be a valid integer, unable to parse string as an integer',
				type: 'int_parsing',
				input: raw,
			});
			return undefined;
		}
		const value = Number.parseInt(raw, 10);
		if (o.ge !== undefined && value < o.ge) {
			this.issues.push({
				loc: ['query', name],
				msg: `Input should be greater than or equal to ${o.ge}`,
				type: 'greater_than_equal',
				input: raw,
				ctx: { ge: o.ge },
			});
			return undefined;
		}
		if (o.le !== undefined && value > o.le) {
			this.issues.push({
				loc: ['query', name],
				msg: `Input should be less than or equal to ${o.le}`,
				type: 'less_than_equal',
				input: raw,
				ctx: { le: o.le },
			});
			return undefined;
		}
		return value;
	}

	str(
		name: string,
		o: {
			minLength?: number;
			maxLength?: number;
			pattern?: string;
			required?: boolean;
			where?: 'query' | 'path';
			value?: string;
		},
	): string | undefined {
		const where = o.where ?? 'query';
		const raw = o.value ?? this.raw(name);
		if (raw === undefined) {
			if (o.required)
				this.issues.push({
					loc: [where, name],
					msg: 'Field required',
					type: 'missing',
					input: null,
				});
			return undefined;
		}
		const issue = checkString(where, name, raw, o);
		if (issue) {
			this.issues.push(issue);
			return undefined;
		}
		return raw;
	}

	get ok(): boolean {
		return this.issues.length === 0;
	}
}

export function checkString(
	where: 'query' | 'path',
	name: string,
	raw: string,
	o: { minLength?: number; maxLength?: number; pattern?: string },
): ValidationIssue | undefined {
	const length = [...raw].length;
	if (o.minLength !== undefined && length < o.minLength) {
		return {
			loc: [where, name],
			msg: `String should have at least ${o.minLength} character${o.minLength === 1 ? '' : 's'}`,
			type: 'string_too_short',
			input: raw,
			ctx: { min_length: o.minLength },
		};
	}
	if (o.maxLength !== undefined && length > o.maxLength) {
		return {
			loc: [where, name],
			msg: `String should have at most ${o.maxLength} character${o.maxLength === 1 ? '' : 's'}`,
			type: 'string_too_long',
			input: raw,
			ctx: { max_length: o.maxLength },
		};
	}
	if (o.pattern !== undefined && !new RegExp(o.pattern).test(raw)) {
		return {
			loc: [where, name],
			msg: `String should match pattern '${o.pattern}'`,
			type: 'string_pattern_mismatch',
			input: raw,
			ctx: { pattern: o.pattern },
		};
	}
	return undefined;
}
