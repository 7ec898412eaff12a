'use strict';
// CompleteMultipartUpload as S3 checks it: parts listed in ascending order (400 InvalidPartOrder),
// each uploaded with the ETag given (400 InvalidPart), none but the last under 5 MiB (400
// EntityTooSmall); then the upload's assembly file, which holds the parts in place (assembly.js),
// is put under the key at once without copying (object-store.js), or, when the parts do not lie
// in it in order, they are joined into a fresh temporary file first. A refused Complete keeps the
// upload, as S3 does; a done one removes it.
const crypto = require('node:crypto');
const fs = require('node:fs');
const { pipeline } = require('node:stream/promises');
const S3Error = require('s3rver/lib/models/error');
const { xmlEscape } = require('./operations');
const { xmlAnswer, NS } = require('./multipart');
const { assembled } = require('./assembly');

const MIN_PART = 5 * 1024 * 1024;

/** [{ partNumber, etag, sha256?, crc32? }] from a CompleteMultipartUpload body. */
function parseParts(xml) {
	const unq = (s) => s.replace(/&quot;|"/g, '').trim();
	const parts = [...xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map(([, body]) => ({
		partNumber: Number(/<PartNumber>\s*(\d+)\s*<\/PartNumber>/.exec(body)?.[1]),
		etag: unq(/<ETag>([\s\S]*?)<\/ETag>/.exec(body)?.[1] ?? ''),
		sha256: /<ChecksumSHA256>([\s\S]*?)<\/ChecksumSHA256>/.exec(body)?.[1]?.trim(),
		crc32: /<ChecksumCRC32>([\s\S]*?)<\/ChecksumCRC32>/.exec(body)?.[1]?.trim(),
	}));
	if (
		!/<CompleteMultipartUpload[\s>]/.test(xml) ||
		!parts.length ||
		parts.some((p) => !p.partNumber)
	)
		throw new S3Error(
			'MalformedXML',
			'The XML you provided was not well-formed or did not validate against our published schema.',
		);
	return parts;
}

async function completeUpload(ctx, registry, store, { bucket, key, uploadId }) {
	let xml = '';
	for await (const chunk of ctx.req) xml += chunk;
	const upload = registry.get(uploadId, bucket, key);
	const listed = parseParts(xml);
	listed.forEach((p, i) => {
		if (i > 0 && p.partNumber <= listed[i - 1].partNumber)
			throw new S3Error('InvalidPartOrder', 'The list of parts was not in ascending order.');
	});
	// An upload made with a checksum algorithm (SHA256, CRC32: multipart.js) lists each part's
	// checksum too, as S3 requires: the part's `sha256` / `crc32` as body.js computed it.
	const checksum = upload.checksumAlgorithm?.toLowerCase();
	const parts = listed.map((p) => {
		const part = upload.parts.get(p.partNumber);
		if (!part || part.md5 !== p.etag || (checksum && part[checksum] !== p[checksum]))
			throw new S3Error(
				'InvalidPart',
				"One or more of the specified parts could not be found. The part might not have been uploaded, or the specified entity tag might not have matched the part's entity tag.",
				{ UploadId: uploadId, PartNumber: p.partNumber, ETag: p.etag },
			);
		return part;
	});
	parts.slice(0, -1).forEach((part, i) => {
		if (part.size < MIN_PART)
			throw new S3Error(
				'EntityTooSmall',
				'Your proposed upload is smaller than the minimum allowed object size.',
				{
					ProposedSize: part.size,
					MinSizeAllowed: MIN_PART,
					PartNumber: listed[i].partNumber,
				},
			);
	});
	const joined = crypto.createHash('md5');
	for (const part of parts) joined.update(Buffer.from(part.md5, 'hex'));
	const etag = `${joined.digest('hex')}-${parts.length}`;
	const inPlace = await assembled(
		upload.layout,
		listed.map((p, i) => ({ number: p.partNumber, part: parts[i] })),
	);
	const temp = inPlace ? upload.layout.file : store.tempFile(bucket);
	try {
		// One stream of every part in order (a pipeline per part into one file would pile up listeners).
		if (!inPlace)
			await pipeline(
				(async function* () {
					for (const { source } of parts)
						if (source.size > 0)
							yield* fs.createReadStream(source.file, {
								start: source.start,
								end: source.start + source.size - 1,
							});
				})(),
				fs.createWriteStream(temp),
			);
		const versionId = await store.commit(bucket, key, temp, { etag, metadata: upload.metadata });
		if (versionId) ctx.set('x-amz-version-id', versionId);
	} catch (err) {
		if (!inPlace) fs.rmSync(temp, { force: true });
		throw err;
	}
	registry.remove(uploadId);
	const location = `${ctx.protocol}://${ctx.host}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
	xmlAnswer(
		ctx,
		`<CompleteMultipartUploadResult xmlns="${NS}"><Location>${xmlEscape(location)}</Location><Bucket>${xmlEscape(bucket)}</Bucket><Key>${xmlEscape(key)}</Key><ETag>&quot;${etag}&quot;</ETag></CompleteMultipartUploadResult>`,
	);
}

module.exports = { completeUpload, MIN_PART };
