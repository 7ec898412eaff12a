/** Registers Partner accounts and their keys in the World's maps (seeding and tests alike). */
import type { PartnerAccount, PartnerKey } from './accounts';
import type { Rng } from './prng';

/** A fresh Partner account, registered in `accounts`. */
export function newPartnerAccount(
	accounts: Map<string, PartnerAccount>,
	id: string,
	rng: Rng,
): PartnerAccount {
	const account: PartnerAccount = {
		id,
		licences: new Map(),
		withdrawn: false,
		withdrawAfter: null,
		keys: [],
		version: 0,
		rng,
	};
	accounts.set(id, account);
	return account;
}

/** Gives `account` the key `key`, registered in `keys`. */
export function addKey(keys: Map<string, PartnerKey>, account: PartnerAccount, key: string): void {
	account.keys.push(key);
	keys.set(key, { key, accountId: account.id, revoked: false });
}
