/**
 * What the accounts area offers the other areas: the sign-in form (the calls area signs a visitor in before a
 * call). Another area imports this file and nothing else of accounts: eslint.config.js keeps it so. Who is signed
 * in is read through lib/session.ts.
 */
export { LoginForm } from './components/login-form';
/** Sign-in by a mobile code, and whether the server offers it (the family join page, issue #52). */
export { MobileSignIn } from './components/mobile-sign-in';
export { mobileAvailabilityQuery } from './api';
