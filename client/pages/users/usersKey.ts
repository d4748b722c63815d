export const USERS_KEY = 'users';
