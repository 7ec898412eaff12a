// The part plan (pure): every size up to the 1 TiB ceiling fits S3's 10,000 parts with no part
// but the last under 5 MiB, a file of one part goes as a single PUT, and the memory the upload
// holds (parts in flight + the one being filled) stays bounded whatever the size.
import {
	copyMemoryBound,
	DEFAULT_PART_BYTES,
	MAX_PARTS,
	MIN_PART_BYTES,
	planParts,
	UPLOAD_WINDOW_BYTES,
	uploadMemoryBound,
} from '../../../../nodes/shared/storage/part-plan';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const TIB = 1024 * GIB;

test.each([0, 1, 8 * MIB, 8 * MIB + 1, 2 * GIB, 10 * GIB, 78 * GIB, 79 * GIB, 500 * GIB, TIB])(
	'%d bytes: at most 10,000 parts of at least 5 MiB, memory within the window plus two parts',
	(size) => {
		for (const connections of [1, 4, 8, 16]) {
			const plan = planParts(size, connections, DEFAULT_PART_BYTES);
			expect(plan.partBytes).toBeGreaterThanOrEqual(MIN_PART_BYTES);
			expect(Math.ceil(size / plan.partBytes)).toBeLessThanOrEqual(MAX_PARTS);
			expect(plan.single).toBe(size <= plan.partBytes);
			expect(plan.inFlight).toBeGreaterThanOrEqual(1);
			expect(plan.inFlight).toBeLessThanOrEqual(connections);
			// Whatever the size: at most the 32 MiB window (or one part, if a part is bigger), plus the one being filled.
			expect(uploadMemoryBound(plan)).toBeLessThanOrEqual(
				Math.max(UPLOAD_WINDOW_BYTES, plan.partBytes) + plan.partBytes,
			);
		}
	},
);

test('up to 78 GiB the parts are 8 MiB and 4 go up at once (32 MiB + 8 MiB held); at 1 TiB, 105 MiB parts one at a time', () => {
	expect(planParts(10 * GIB, 8, DEFAULT_PART_BYTES)).toEqual({
		partBytes: 8 * MIB,
		inFlight: 4,
		single: false,
	});
	expect(uploadMemoryBound(planParts(78 * GIB, 8, DEFAULT_PART_BYTES))).toBe(40 * MIB);
	// With the download's 64 MiB window of segments and one 16 MiB segment asked early: 120 MiB
	// of the copy's own, whatever the size.
	expect(copyMemoryBound(planParts(78 * GIB, 16, DEFAULT_PART_BYTES))).toBe(120 * MIB);
	expect(planParts(TIB, 8, DEFAULT_PART_BYTES)).toEqual({
		partBytes: 105 * MIB,
		inFlight: 1,
		single: false,
	});
});

test('an unknown size is planned for the 1 TiB ceiling', () => {
	expect(planParts(undefined, 8, DEFAULT_PART_BYTES).partBytes).toBe(105 * MIB);
});
