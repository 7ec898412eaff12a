// The one way a property gets its display conditions, as n8n's own updateDisplayOptions: shared
// property helpers return plain properties, and whoever places them (a resource, for each of its
// operations) adds when they show.
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/** The properties with `displayOptions` merged in; each keeps its own conditions (Limit: returnAll false). */
export const updateDisplayOptions = (
	displayOptions: IDisplayOptions,
	properties: INodeProperties[],
): INodeProperties[] =>
	properties.map((property) => ({
		...property,
		displayOptions: {
			...displayOptions,
			...property.displayOptions,
			show: { ...displayOptions.show, ...property.displayOptions?.show },
		},
	}));
