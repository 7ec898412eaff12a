'use strict';
// Where a multipart upload's parts are written so that Complete need not copy them, as a real
// store does not: every upload has one assembly file in the bucket's folder, and a part whose
// place in the object is known when it arrives (parts 1 to n-1 have all arrived or are arriving,
// each with its Content-Length) is written into it at that place. Complete then truncates the
// assembly to the object's size and renames it onto the key (object-store.js), when the listed
// parts lie in it in order; a part that arrived before a lower one is kept in a file of its own
// and copied into its place then. Otherwise (parts listed with gaps, a part sent again with
// another size) it joins the parts into a fresh file as before (complete.js). A part is
// never written over the bytes the upload currently holds for it: a second upload of a part
// already in the assembly goes to a file of its own, so a failed retry cannot spoil a good part.
const fs = require('node:fs');

/** The upload's layout: part number -> { offset, size, busy, holds }. */
function createLayout(file) {
	fs.writeFileSync(file, '');
	return { file, slots: new Map(), next: 0, reservedUpTo: 0 };
}

/**
 * Where part `number` of `size` bytes goes: { start } in the assembly, or undefined (a file of its
 * own). Reserves the place, marks it busy; `settle(slot, ok)` when the body is in or failed.
 */
function place(layout, number, size) {
	if (!layout || layout.closed || !Number.isSafeInteger(size) || size < 0) return undefined;
	let slot = layout.slots.get(number);
	if (!slot && number === layout.reservedUpTo + 1) {
		slot = { offset: layout.next, size, busy: false, holds: false };
		layout.slots.set(number, slot);
		layout.next += size;
		layout.reservedUpTo = number;
	}
	if (!slot || slot.busy || slot.holds || slot.size !== size) return undefined;
	slot.busy = true;
	return slot;
}

/**
 * Reserves places, from the first number without one on, for parts already stored in files of
 * their own (`sizeOf(n)`: a stored part's size): they arrived before a lower part, and are copied
 * in at Complete; the parts after them are written in place again.
 */
function advance(layout, sizeOf) {
	if (!layout || layout.closed) return;
	for (let n = layout.reservedUpTo + 1, size; (size = sizeOf(n)) !== undefined; n++) {
		layout.slots.set(n, { offset: layout.next, size, busy: false, holds: false });
		layout.next += size;
		layout.reservedUpTo = n;
	}
}

function settle(slot, ok) {
	slot.busy = false;
	slot.holds = ok;
}

/** A part stored elsewhere now holds the part's bytes: its place in the assembly is stale. */
function release(layout, number) {
	const slot = layout?.slots.get(number);
	if (slot && !slot.busy) slot.holds = false;
}

/**
 * Whether the assembly, cut at the listed parts' total size, is the object: every listed part
 * in it at the offset where the parts before it end, no place busy (a write still running would
 * land in the object). Parts in files of their own whose place fits are copied into it.
 */
async function assembled(layout, listed) {
	if (!layout || [...layout.slots.values()].some((s) => s.busy)) return false;
	let offset = 0;
	const copies = [];
	for (const { number, part } of listed) {
		const slot = layout.slots.get(number);
		if (!slot || slot.offset !== offset || slot.size !== part.size) return false;
		if (!slot.holds) copies.push({ slot, file: part.source.file });
		offset += part.size;
	}
	// From here on no part goes into the assembly: it is about to become the object.
	layout.closed = true;
	for (const { slot, file } of copies) {
		await copyInto(file, layout.file, slot.offset);
		slot.holds = true;
	}
	fs.truncateSync(layout.file, offset);
	return true;
}

async function copyInto(from, to, start) {
	const { pipeline } = require('node:stream/promises');
	await pipeline(fs.createReadStream(from), fs.createWriteStream(to, { flags: 'r+', start }));
}

module.exports = { createLayout, place, advance, settle, release, assembled };
