// What downloadToBinary (download.ts) takes and gives back.
import type { IBinaryData } from 'n8n-workflow';

import type { SignedUrl } from './signed-url';
import type { StoreBody } from './store-body';
import type { TransferFigures } from './transfer-meter';
import type { TransferWaits } from './transfer-waits';

export interface DownloadOptions<T = IBinaryData> {
	videoId: string;
	/** The URL already issued for this item. */
	signed: SignedUrl;
	/** Asks GridBank for a fresh URL (no charge; used once when the first is expired or refused). */
	reissue: () => Promise<SignedUrl>;
	/** Size the API announced (Enterprise file_size), checked against what was stored. */
	expectedSize?: number;
	parallelConnections?: number; // ranged segments over this many connections (1: one stream)
	windowBytes?: number; // what may wait for the store (segment-plan.ts; default WINDOW_BYTES)
	waits?: TransferWaits; // the transfer's total wait on storage (a copy shares it); else its own
	store?: StoreBody<T>; // instead of n8n's binary data: the copy to storage (store-body.ts)
}

export interface DownloadResult<T = IBinaryData> {
	signed: SignedUrl;
	binary: T;
	fileName: string;
	mimeType: string;
	fileSize: number;
	/** SHA-256 of the bytes, in order as they passed (a copy without a SHA-256 check hashes its own). */
	sha256?: string;
	transfer: TransferFigures;
}
