// The copy's storage errors keep their own message: n8n's NodeApiError (2.41 and 1.x alike)
// swaps a message naming ECONNRESET, ETIMEDOUT… for its generic "The connection to the server
// was closed unexpectedly", which names no bucket. Seen in CI when a part upload's reset reached
// the client as a reset rather than as a 500 (copy-faults.test.ts, "a part reset every time").
import type { INode } from 'n8n-workflow';
import { s3Error } from '../../../../nodes/shared/storage/s3-errors';

const node: INode = {
	id: '1',
	name: 'Copy',
	type: 'n8n-nodes-gridbank.gridBankPartner',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const failure = (text: string, status?: number) =>
	s3Error(
		{ node, itemIndex: 2 },
		{ op: 'UploadPart', status, text, bucket: 'masters', key: 'a.mov', scrub: (t) => t },
	);

test.each(['read ECONNRESET', 'connect ETIMEDOUT 10.0.0.1:9000', 'socket hang up'])(
	'a network failure (%s) says the storage could not be reached, and where',
	(reason) => {
		const error = failure(reason);
		expect(error.message).toBe(`The storage could not be reached (${reason})`);
		expect(error.description).toContain('bucket "masters", key "a.mov"');
		expect(error.context.itemIndex).toBe(2);
	},
);

test('an S3 error code keeps its words', () => {
	const xml = '<Error><Code>InternalError</Code><Message>We hit ECONNRESET</Message></Error>';
	expect(failure(xml, 500).message).toBe('The storage kept failing with an internal error');
});
