import type { InstancesConfig } from '../../config';
import { createOrchestratorProvisioner } from './http';
import { createLocalProvisioner } from './local';
import type { Provisioner } from './types';

export * from './types';

/** The configured provisioner: the orchestrator when INSTANCE_ORCHESTRATOR_URL is set, else the simulator. */
export function provisionerFor(config: { baseUrl: string; instances: InstancesConfig }): Provisioner {
  const { instances } = config;
  return instances.orchestrator
    ? createOrchestratorProvisioner({
        ...instances.orchestrator,
        callbackUrl: `${config.baseUrl}/api/instances/callback`,
        timeoutMs: instances.orchestratorTimeoutMs,
      })
    : createLocalProvisioner({ urlTemplate: instances.urlTemplate });
}
