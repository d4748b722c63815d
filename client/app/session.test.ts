import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { forgetSession, PROFILE_KEY } from './session';

describe('forgetting the session at logout', () => {
  it('drops the submitted forms too, so the last password typed does not stay in memory', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(PROFILE_KEY, { id: 1 });
    await queryClient
      .getMutationCache()
      .build(queryClient, { mutationFn: (body: { currentPassword: string }) => Promise.resolve(body) })
      .execute({ currentPassword: 'Secret-Password-1!' });
    expect(queryClient.getMutationCache().getAll()).toHaveLength(1);

    forgetSession(queryClient);
    expect(queryClient.getMutationCache().getAll()).toHaveLength(0);
    expect(queryClient.getQueryData(PROFILE_KEY)).toBeNull();
  });
});
