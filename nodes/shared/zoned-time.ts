// A date-time without an offset ("2026-01-31T12:00", what n8n's date picker stores) means that
// wall-clock time in the workflow's time zone, not in the n8n server's: converted here with
// Intl only (no date library in a community node).

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

/** How far `zone`'s wall clock is ahead of UTC at the instant `epochMs`. */
function offsetMs(epochMs: number, zone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(epochMs));
	const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
	const wall = Date.UTC(
		get('year'),
		get('month') - 1,
		get('day'),
		get('hour'),
		get('minute'),
		get('second'),
	);
	return wall - Math.floor(epochMs / 1000) * 1000;
}

/**
 * Epoch ms of a date-time text: with an offset or Z as it says; without one, as wall-clock
 * time in `zone` (an IANA name; an unknown zone falls back to UTC). undefined: not a date.
 */
export function parseInZone(text: string, zone: string | undefined): number | undefined {
	const match = LOCAL.exec(text.trim());
	if (!match) {
		const ms = Date.parse(text);
		return Number.isNaN(ms) ? undefined : ms;
	}
	const [year, month, day, hour, minute, second] = match
		.slice(1, 7)
		.map((part) => Number(part ?? 0));
	const millis = match[7] ? Number(match[7].padEnd(3, '0')) : 0;
	const wall = Date.UTC(year, month - 1, day, hour, minute, second, millis);
	const date = new Date(wall);
	// Date.UTC rolls 2026-13-45 over into 2027: such a text is not a date.
	if (
		Number.isNaN(wall) ||
		date.getUTCMonth() !== month - 1 ||
		date.getUTCDate() !== day ||
		hour > 23 ||
		minute > 59 ||
		second > 59
	)
		return undefined;
	let zoneName = zone || 'UTC';
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zoneName });
	} catch {
		zoneName = 'UTC';
	}
	// Two passes: the offset at the guessed instant, then at the corrected one (DST edges).
	const guess = wall - offsetMs(wall, zoneName);
	return wall - offsetMs(guess, zoneName);
}
