// Where a download's body may go instead of n8n's binary data: the copy to storage
// (nodes/shared/storage/) hands download.ts a store, so the copy has every guard of a download.
import type { BinaryStream } from './ordered-output';

/** Takes the ordered, checked body; `size` is what must arrive (the API's size, else storage's). */
export type StoreBody<T> = (
	body: BinaryStream,
	file: { fileName: string; mimeType: string; size?: number },
) => Promise<T>;
