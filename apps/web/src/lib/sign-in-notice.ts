// A notice the sign-in screen shows on arrival, carried in the router's location state (types only,
// so the sign-in route's first paint does not grow).

export type SignInNotice = 'password-changed';

export interface SignInLocationState {
  notice?: SignInNotice;
}
