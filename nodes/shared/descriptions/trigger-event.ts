// A trigger's "Trigger On" parameter. n8n's nodes panel lists a trigger beneath the action node of
// the same name (GridBank Partner Trigger under GridBank Partner), one entry per option of this
// parameter, named by the option's `action`; without it n8n shows a generic "On new <node> event".
// The trigger's own description is what n8n shows on that merged entry, so a paired trigger's
// description says what the pair does, the action node first.
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

export const triggerOnProperty = (
	events: INodePropertyOptions[],
	defaultEvent: string,
): INodeProperties => ({
	displayName: 'Trigger On',
	name: 'event',
	type: 'options',
	noDataExpression: true,
	options: events,
	default: defaultEvent,
	description: 'What starts the workflow',
});
