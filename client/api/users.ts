import { queryOptions } from '@tanstack/react-query';
import { type CreateUserBody, type UpdateUserBody, User, UserList, type UserListQuery } from '../../common/api/users';
import { api } from './client';

interface UserListPosition {
  offset: number;
  filter: string;
}

/** Query keys of user data: every list and user sits under userKeys.all, which a change invalidates. */
export const userKeys = {
  all: ['users'] as const,
  lists: () => ['users', 'list'] as const,
  list: (position: UserListPosition) => ['users', 'list', position] as const,
  one: (id: number) => ['users', id] as const,
};

const listUsers = (query: Partial<UserListQuery>) => api.get('/users', { query, schema: UserList });

export const createUser = (body: CreateUserBody, idempotencyKey?: string) =>
  api.post('/users', body, { schema: User, idempotencyKey });

export const updateUser = (id: number, body: UpdateUserBody) => api.patch(`/users/${id}`, body, { schema: User });

/** One page of the users list, searched by `filter`. */
export const userListQuery = (position: UserListPosition, pageLength: number) =>
  queryOptions({
    queryKey: userKeys.list(position),
    queryFn: () => listUsers({ pageOffset: position.offset, pageLength, filter: position.filter || undefined }),
  });
