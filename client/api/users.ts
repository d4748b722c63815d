import { type CreateUserBody, type UpdateUserBody, User, UserList, type UserListQuery } from '../../common/api/users';
import { api } from './client';

export const listUsers = (query: Partial<UserListQuery>) => api.get('/users', { query, schema: UserList });

export const getUser = (id: number) => api.get(`/users/${id}`, { schema: User });

export const createUser = (body: CreateUserBody) => api.post('/users', body, { schema: User });

export const updateUser = (id: number, body: UpdateUserBody) => api.patch(`/users/${id}`, body, { schema: User });
