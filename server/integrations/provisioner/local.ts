import type { Provisioner, ProvisionerOrder, ProvisionerReport } from './types';

/**
 * The local simulator (no orchestrator configured): it takes every order at once and reports the
 * steps a real orchestrator would, which the portal plays one per INSTANCE_PROVISIONING_DELAY_SECONDS
 * through its jobs, so the demo and the tests go through every status. A ready instance gets the
 * address of INSTANCE_URL_TEMPLATE; suspending and resuming have nothing to simulate.
 */
export function createLocalProvisioner(options: { urlTemplate: string }): Provisioner {
  return {
    kind: 'local',
    send: async (order) => ({ simulated: stepsOf(order, options.urlTemplate) }),
  };
}

function stepsOf(order: ProvisionerOrder, urlTemplate: string): ProvisionerReport[] {
  switch (order.command) {
    case 'create':
      return [{ status: 'provisioning' }, { status: 'provisioned', url: instanceUrl(urlTemplate, order.instance) }];
    case 'delete':
      return [{ status: 'deleted' }];
    default:
      return [];
  }
}

/** The template with `{name}` and `{id}` filled in (the name is a DNS label: see instanceName). */
function instanceUrl(template: string, instance: { id: number; name: string }): string {
  return template.replaceAll('{name}', encodeURIComponent(instance.name)).replaceAll('{id}', String(instance.id));
}
