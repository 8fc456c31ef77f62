import GoogleSignIn from '../../islands/GoogleSignIn';
import SignupForm from '../../islands/SignupForm';

/** Islands of the signup screens (see screens/islands.ts). */
export const SIGNUP_ISLANDS = { SignupForm, GoogleSignIn } as const;
