import { msg } from '@lingui/core/macro';

// The words the portal shows that are written once, in English, outside it: the shared schemas'
// validation messages and labels (loan purposes, sessions, security events, second factors) in
// packages/contracts, and the API's messages for people (an error's `message`). The API speaks
// English to every caller; the portal shows each of these in the borrower's language
// (in-portal-language.ts), looked up by its English, which is its id here. This list only puts them
// in the portal catalogue: no screen imports it. The sign-in rules' own are in the sign-in catalogue
// (sign-in-rules-messages.ts). The component tests hold both lists to the code: each message is
// still written there, and every message a shared schema exports is in one of them.
export const SHARED_MESSAGES = [
  msg({
    id: 'Your language can’t be saved to your account because you sign in through another provider. This device will remember it.',
    message:
      'Your language can’t be saved to your account because you sign in through another provider. This device will remember it.',
  }),
  msg({ id: 'This borrower no longer exists.', message: 'This borrower no longer exists.' }),
  // A staff member's identity at the borrower's sign-in (the token exchange refuses it).
  msg({
    id: 'Staff accounts sign in to the staff console.',
    message: 'Staff accounts sign in to the staff console.',
  }),
  // Labels: what a loan is for, how a session began or ended, a security event, a second factor.
  msg({ id: 'Working capital', message: 'Working capital' }),
  msg({ id: 'Equipment', message: 'Equipment' }),
  msg({ id: 'Inventory', message: 'Inventory' }),
  msg({ id: 'Expansion or renovation', message: 'Expansion or renovation' }),
  msg({ id: 'Refinancing debt', message: 'Refinancing debt' }),
  msg({ id: 'Something else', message: 'Something else' }),
  msg({ id: 'Password', message: 'Password' }),
  msg({ id: 'Sign-in link by email', message: 'Sign-in link by email' }),
  msg({ id: 'Registration', message: 'Registration' }),
  msg({ id: 'From your lender', message: 'From your lender' }),
  msg({ id: 'Passkey', message: 'Passkey' }),
  msg({ id: 'Unknown device', message: 'Unknown device' }),
  msg({ id: 'By you', message: 'By you' }),
  msg({ id: 'By your lender', message: 'By your lender' }),
  msg({ id: 'When your password changed', message: 'When your password changed' }),
  msg({
    id: 'When you reported a sign-in you didn’t recognize',
    message: 'When you reported a sign-in you didn’t recognize',
  }),
  msg({ id: 'When your email address changed', message: 'When your email address changed' }),
  msg({ id: 'Signed in', message: 'Signed in' }),
  msg({ id: 'Signed out', message: 'Signed out' }),
  msg({ id: 'Password changed', message: 'Password changed' }),
  msg({ id: 'Email address changed', message: 'Email address changed' }),
  msg({ id: 'Failed sign-in attempts', message: 'Failed sign-in attempts' }),
  msg({ id: 'Account locked', message: 'Account locked' }),
  msg({ id: 'Authenticator app added', message: 'Authenticator app added' }),
  msg({ id: 'Authenticator app removed', message: 'Authenticator app removed' }),
  msg({ id: 'Email codes added', message: 'Email codes added' }),
  msg({ id: 'Email codes removed', message: 'Email codes removed' }),
  msg({ id: 'New recovery codes made', message: 'New recovery codes made' }),
  msg({ id: 'Bank account added', message: 'Bank account added' }),
  msg({ id: 'Bank account removed', message: 'Bank account removed' }),
  msg({ id: 'Passkey added', message: 'Passkey added' }),
  msg({ id: 'Passkey removed', message: 'Passkey removed' }),
  msg({ id: 'Authenticator app', message: 'Authenticator app' }),
  msg({ id: 'Email codes', message: 'Email codes' }),
  msg({ id: 'A number or one of !@#$%^&*()', message: 'A number or one of !@#$%^&*()' }),
  msg({ id: 'Agree to sign electronically first.', message: 'Agree to sign electronically first.' }),
  msg({ id: 'An uppercase and a lowercase letter', message: 'An uppercase and a lowercase letter' }),
  msg({ id: 'At least 8 characters', message: 'At least 8 characters' }),
  msg({ id: 'Business name is required.', message: 'Business name is required.' }),
  msg({
    id: 'Business name must be at most 200 characters.',
    message: 'Business name must be at most 200 characters.',
  }),
  msg({ id: 'Choose the documents to sign.', message: 'Choose the documents to sign.' }),
  msg({ id: 'Choose what the loan is for.', message: 'Choose what the loan is for.' }),
  msg({
    id: 'Confirm that you agree to sign electronically.',
    message: 'Confirm that you agree to sign electronically.',
  }),
  msg({
    id: 'Confirm that you have read and agree to the document.',
    message: 'Confirm that you have read and agree to the document.',
  }),
  msg({
    id: 'Confirm that you have read and agree to the documents.',
    message: 'Confirm that you have read and agree to the documents.',
  }),
  msg({ id: 'Consent to sign electronically', message: 'Consent to sign electronically' }),
  msg({ id: 'Each document once.', message: 'Each document once.' }),
  msg({
    id: 'Email codes aren’t offered for your account. Use an authenticator app instead.',
    message: 'Email codes aren’t offered for your account. Use an authenticator app instead.',
  }),
  msg({ id: 'Enter a whole dollar amount.', message: 'Enter a whole dollar amount.' }),
  msg({ id: 'Enter the 6-digit code.', message: 'Enter the 6-digit code.' }),
  msg({ id: 'Enter the amount you need.', message: 'Enter the amount you need.' }),
  msg({ id: 'Enter your current password.', message: 'Enter your current password.' }),
  msg({
    id: 'If an account exists for that email, we sent a link.',
    message: 'If an account exists for that email, we sent a link.',
  }),
  msg({ id: 'Include a number or one of !@#$%^&*().', message: 'Include a number or one of !@#$%^&*().' }),
  msg({
    id: 'Keep a copy of this consent: you can download it from the page where you sign your documents, at any time.',
    message:
      'Keep a copy of this consent: you can download it from the page where you sign your documents, at any time.',
  }),
  msg({ id: 'No active session of yours has that id.', message: 'No active session of yours has that id.' }),
  msg({ id: 'No document of yours has that id.', message: 'No document of yours has that id.' }),
  msg({ id: 'No loan of yours has that id.', message: 'No loan of yours has that id.' }),
  msg({
    id: 'Passkeys for this portal are added with us. Call us to add one.',
    message: 'Passkeys for this portal are added with us. Call us to add one.',
  }),
  msg({ id: 'Passwords do not match.', message: 'Passwords do not match.' }),
  msg({ id: 'Please confirm your password.', message: 'Please confirm your password.' }),
  msg({
    id: 'Recovery codes are offered once you’ve added a second sign-in step.',
    message: 'Recovery codes are offered once you’ve added a second sign-in step.',
  }),
  msg({
    id: 'Something went wrong on our side. Please try again later.',
    message: 'Something went wrong on our side. Please try again later.',
  }),
  msg({
    id: 'That code didn’t work. Check your app and enter the code it shows now.',
    message: 'That code didn’t work. Check your app and enter the code it shows now.',
  }),
  msg({
    id: 'That code didn’t work. Check your email and enter the newest code (codes last 5 minutes).',
    message: 'That code didn’t work. Check your email and enter the newest code (codes last 5 minutes).',
  }),
  msg({
    id: 'That code didn’t work. Check your email and enter the newest code.',
    message: 'That code didn’t work. Check your email and enter the newest code.',
  }),
  msg({
    id: 'That code no longer works. Send a new code and enter it.',
    message: 'That code no longer works. Send a new code and enter it.',
  }),
  msg({
    id: 'That email address now belongs to another account, so we couldn’t change yours. Ask again with another address.',
    message:
      'That email address now belongs to another account, so we couldn’t change yours. Ask again with another address.',
  }),
  msg({ id: 'That isn’t your current password.', message: 'That isn’t your current password.' }),
  msg({
    id: 'That isn’t your current password. Check it and try again.',
    message: 'That isn’t your current password. Check it and try again.',
  }),
  msg({
    id: 'That page of activity doesn’t exist. Load the list again.',
    message: 'That page of activity doesn’t exist. Load the list again.',
  }),
  msg({
    id: 'That’s the email address you sign in with already.',
    message: 'That’s the email address you sign in with already.',
  }),
  msg({
    id: 'That’s too many wrong codes for now. Try again in 15 minutes, or use another way to confirm it’s you.',
    message:
      'That’s too many wrong codes for now. Try again in 15 minutes, or use another way to confirm it’s you.',
  }),
  msg({
    id: 'That’s too many wrong codes, so we’ve stopped this one. Start adding it again.',
    message: 'That’s too many wrong codes, so we’ve stopped this one. Start adding it again.',
  }),
  msg({
    id: 'The consent to sign electronically has changed. Read it again, then agree.',
    message: 'The consent to sign electronically has changed. Read it again, then agree.',
  }),
  msg({ id: 'The largest loan is $5,000,000.', message: 'The largest loan is $5,000,000.' }),
  msg({ id: 'The link is incomplete.', message: 'The link is incomplete.' }),
  msg({ id: 'The request could not be completed.', message: 'The request could not be completed.' }),
  msg({
    id: 'The service is busy. Try again in a few seconds.',
    message: 'The service is busy. Try again in a few seconds.',
  }),
  msg({
    id: 'The service is temporarily unavailable. Please try again shortly.',
    message: 'The service is temporarily unavailable. Please try again shortly.',
  }),
  msg({
    id: 'The sign-in session has reached its maximum age. Sign in again.',
    message: 'The sign-in session has reached its maximum age. Sign in again.',
  }),
  msg({ id: 'The smallest loan is $5,000.', message: 'The smallest loan is $5,000.' }),
  msg({
    id: 'This document is not signed, so it has no signed PDF. Sign it in your loan’s checkout first.',
    message: 'This document is not signed, so it has no signed PDF. Sign it in your loan’s checkout first.',
  }),
  msg({
    id: 'This document needs no signature: reviewing it is enough.',
    message: 'This document needs no signature: reviewing it is enough.',
  }),
  msg({
    id: 'This email address already has an account. Sign in instead, or reset your password if you’ve forgotten it.',
    message:
      'This email address already has an account. Sign in instead, or reset your password if you’ve forgotten it.',
  }),
  msg({
    id: 'This email change link can’t be used: it has expired, was already used, or belongs to another account. Ask for a new link from your account page.',
    message:
      'This email change link can’t be used: it has expired, was already used, or belongs to another account. Ask for a new link from your account page.',
  }),
  msg({
    id: 'This is the session you are using. Sign out instead.',
    message: 'This is the session you are using. Sign out instead.',
  }),
  msg({
    id: 'This link is invalid, has expired or was already used. If you’re worried about your account, reset your password.',
    message:
      'This link is invalid, has expired or was already used. If you’re worried about your account, reset your password.',
  }),
  msg({ id: 'This loan has no document with that id.', message: 'This loan has no document with that id.' }),
  msg({
    id: 'This loan has no documents to review or sign yet.',
    message: 'This loan has no documents to review or sign yet.',
  }),
  msg({
    id: 'This operation is not allowed in the current authentication state.',
    message: 'This operation is not allowed in the current authentication state.',
  }),
  msg({
    id: 'This password is too common. Choose another.',
    message: 'This password is too common. Choose another.',
  }),
  msg({
    id: 'This password-reset link is invalid, has expired or was already used. Ask for a new link.',
    message: 'This password-reset link is invalid, has expired or was already used. Ask for a new link.',
  }),
  msg({
    id: 'This sign-in link is invalid, has expired or was already used. Ask for a new link.',
    message: 'This sign-in link is invalid, has expired or was already used. Ask for a new link.',
  }),
  msg({
    id: 'This verification link is invalid or has expired. Start your application again to get a new one.',
    message:
      'This verification link is invalid or has expired. Start your application again to get a new one.',
  }),
  msg({ id: 'To add a passkey, confirm it’s you.', message: 'To add a passkey, confirm it’s you.' }),
  msg({
    id: 'To add a sign-in step, confirm it’s you.',
    message: 'To add a sign-in step, confirm it’s you.',
  }),
  msg({
    id: 'To change your email address, confirm it’s you.',
    message: 'To change your email address, confirm it’s you.',
  }),
  msg({
    id: 'To receive and keep documents electronically you need a current web browser, an email address and a way to open and save PDF files. We will tell you if these requirements change.',
    message:
      'To receive and keep documents electronically you need a current web browser, an email address and a way to open and save PDF files. We will tell you if these requirements change.',
  }),
  msg({
    id: 'To sign these documents, confirm it’s you.',
    message: 'To sign these documents, confirm it’s you.',
  }),
  msg({
    id: 'To sign this document, confirm it’s you.',
    message: 'To sign this document, confirm it’s you.',
  }),
  msg({
    id: 'Too many wrong codes for this factor. Enroll it again.',
    message: 'Too many wrong codes for this factor. Enroll it again.',
  }),
  msg({
    id: 'Two-step verification isn’t offered for this portal.',
    message: 'Two-step verification isn’t offered for this portal.',
  }),
  msg({ id: 'Type your full name to sign.', message: 'Type your full name to sign.' }),
  msg({ id: 'Use 60 characters or fewer.', message: 'Use 60 characters or fewer.' }),
  msg({ id: 'Use at least 8 characters.', message: 'Use at least 8 characters.' }),
  msg({ id: 'Use at most 128 characters.', message: 'Use at most 128 characters.' }),
  msg({
    id: 'Use both an uppercase and a lowercase letter.',
    message: 'Use both an uppercase and a lowercase letter.',
  }),
  msg({
    id: 'We can’t email you a code for this. Use another way to confirm it’s you.',
    message: 'We can’t email you a code for this. Use another way to confirm it’s you.',
  }),
  msg({
    id: 'We couldn’t add that passkey. It may be one you’ve added already. Try again, or use another device.',
    message:
      'We couldn’t add that passkey. It may be one you’ve added already. Try again, or use another device.',
  }),
  msg({
    id: 'We’ve sent several codes just now. Use the newest one, or try again in 15 minutes.',
    message: 'We’ve sent several codes just now. Use the newest one, or try again in 15 minutes.',
  }),
  msg({
    id: 'You agree that we may give you your loan documents, and the notices about them, electronically, and that you sign them electronically. An electronic signature has the same legal effect as one on paper.',
    message:
      'You agree that we may give you your loan documents, and the notices about them, electronically, and that you sign them electronically. An electronic signature has the same legal effect as one on paper.',
  }),
  msg({
    id: 'You already have this sign-in step. Remove it first to add it again.',
    message: 'You already have this sign-in step. Remove it first to add it again.',
  }),
  msg({
    id: 'You don’t have a sign-in step with that id.',
    message: 'You don’t have a sign-in step with that id.',
  }),
  msg({ id: 'You have signed this document already.', message: 'You have signed this document already.' }),
  msg({
    id: 'You may ask us for a paper copy of any document at no charge. You may withdraw this consent at any time by calling us: withdrawing it does not change documents you have signed already, and you would then sign on paper.',
    message:
      'You may ask us for a paper copy of any document at no charge. You may withdraw this consent at any time by calling us: withdrawing it does not change documents you have signed already, and you would then sign on paper.',
  }),
  msg({
    id: 'You need an authenticator app to sign in, so you can’t remove your only one. Call us if you’ve lost it.',
    message:
      'You need an authenticator app to sign in, so you can’t remove your only one. Call us if you’ve lost it.',
  }),
  msg({
    id: 'Your account doesn’t have a password with us to change. Use “Forgot password?” on the sign-in page to set one.',
    message:
      'Your account doesn’t have a password with us to change. Use “Forgot password?” on the sign-in page to set one.',
  }),
  msg({
    id: 'Your account doesn’t sign in with a password with us, so you can’t add an app here.',
    message: 'Your account doesn’t sign in with a password with us, so you can’t add an app here.',
  }),
  msg({
    id: 'Your account has no name on it to sign with. Call us and we’ll add it.',
    message: 'Your account has no name on it to sign with. Call us and we’ll add it.',
  }),
  msg({
    id: 'Your account uses two-step verification, so a sign-in link can’t sign you in. Sign in with your password instead.',
    message:
      'Your account uses two-step verification, so a sign-in link can’t sign you in. Sign in with your password instead.',
  }),
  msg({
    id: 'Your lender’s sign-in service didn’t accept this password.',
    message: 'Your lender’s sign-in service didn’t accept this password.',
  }),
  msg({ id: 'Your name is required.', message: 'Your name is required.' }),
  msg({
    id: 'Your name must be at most 120 characters.',
    message: 'Your name must be at most 120 characters.',
  }),
  msg({
    id: 'Your new password must be different from your current one.',
    message: 'Your new password must be different from your current one.',
  }),
  msg({
    id: 'You’ve asked for several email changes just now. Please try again in 15 minutes.',
    message: 'You’ve asked for several email changes just now. Please try again in 15 minutes.',
  }),
  msg({
    id: 'You’ve made several changes to your account in a short time. Wait 15 minutes, then try again.',
    message: 'You’ve made several changes to your account in a short time. Wait 15 minutes, then try again.',
  }),
  msg({
    id: 'This isn’t the name on your account. Type your name as it is on your account: {accountName}.',
    message: 'This isn’t the name on your account. Type your name as it is on your account: {accountName}.',
  }),
  // The API's, with the parts that vary named (in-portal-language.ts fills them in).
  msg({
    id: 'This invitation link is invalid, has expired or was already used. Call {lenderName} at {supportPhone} for a new one.',
    message:
      'This invitation link is invalid, has expired or was already used. Call {lenderName} at {supportPhone} for a new one.',
  }),
  msg({
    id: 'Your sign-in email address is changed with {lenderName}. Call us at {supportPhone}.',
    message: 'Your sign-in email address is changed with {lenderName}. Call us at {supportPhone}.',
  }),
  msg({
    id: "We've received several applications from you in a short time. Please try again in {minutes} minutes, or call {lenderName} at {supportPhone}.",
    message:
      "We've received several applications from you in a short time. Please try again in {minutes} minutes, or call {lenderName} at {supportPhone}.",
  }),
  msg({ id: 'Sign in again.', message: 'Sign in again.' }),
  msg({ id: "Start this loan's checkout first.", message: "Start this loan's checkout first." }),
  msg({
    id: 'Review this document before you sign it.',
    message: 'Review this document before you sign it.',
  }),
  msg({
    id: 'This loan isn’t active: only an active loan’s documents can be reviewed and signed.',
    message: 'This loan isn’t active: only an active loan’s documents can be reviewed and signed.',
  }),
  // Payments: the bank account forms' checks, what a bank's return code means, the API's refusals.
  msg({
    id: 'You’ve added as many bank accounts as you can for now. Call us if you need to add another.',
    message: 'You’ve added as many bank accounts as you can for now. Call us if you need to add another.',
  }),
  msg({ id: 'You’ve added this bank account already.', message: 'You’ve added this bank account already.' }),
  msg({
    id: 'You have as many bank accounts as you can add. Remove one first.',
    message: 'You have as many bank accounts as you can add. Remove one first.',
  }),
  msg({
    id: 'This account can’t be verified now. Call us for help.',
    message: 'This account can’t be verified now. Call us for help.',
  }),
  msg({
    id: 'Those aren’t the amounts we sent. Check your bank statement and try again.',
    message: 'Those aren’t the amounts we sent. Check your bank statement and try again.',
  }),
  msg({
    id: 'This bank account can’t be used to pay. Choose a verified bank account.',
    message: 'This bank account can’t be used to pay. Choose a verified bank account.',
  }),
  msg({
    id: 'A payment on its way or autopay uses this account. Remove it once they no longer do.',
    message: 'A payment on its way or autopay uses this account. Remove it once they no longer do.',
  }),
  msg({ id: 'That’s more than your payoff amount.', message: 'That’s more than your payoff amount.' }),
  msg({
    id: 'That’s more than you can pay at once online. Call us to pay more.',
    message: 'That’s more than you can pay at once online. Call us to pay more.',
  }),
  msg({
    id: 'That’s more than you can pay in one day online. Call us to pay more.',
    message: 'That’s more than you can pay in one day online. Call us to pay more.',
  }),
  msg({
    id: 'That day can’t be chosen any more. Choose a banking day from the ones offered.',
    message: 'That day can’t be chosen any more. Choose a banking day from the ones offered.',
  }),
  msg({
    id: 'The payment’s details changed. Review the authorization again.',
    message: 'The payment’s details changed. Review the authorization again.',
  }),
  msg({
    id: 'This payment was already submitted with other details. Start again.',
    message: 'This payment was already submitted with other details. Start again.',
  }),
  msg({
    id: 'This payment can’t be cancelled any more: it’s on its way to your bank.',
    message: 'This payment can’t be cancelled any more: it’s on its way to your bank.',
  }),
  msg({ id: 'This loan can’t take payments online.', message: 'This loan can’t take payments online.' }),
  msg({ id: 'No bank account of yours has that id.', message: 'No bank account of yours has that id.' }),
  msg({ id: 'No payment of yours has that id.', message: 'No payment of yours has that id.' }),
  msg({
    id: 'No loan or bank account of yours has that id.',
    message: 'No loan or bank account of yours has that id.',
  }),
  msg({
    id: 'To add a bank account, confirm it’s you.',
    message: 'To add a bank account, confirm it’s you.',
  }),
  msg({
    id: 'To remove a bank account, confirm it’s you.',
    message: 'To remove a bank account, confirm it’s you.',
  }),
  msg({
    id: 'To verify this bank account again, confirm it’s you.',
    message: 'To verify this bank account again, confirm it’s you.',
  }),
  msg({
    id: 'Those aren’t the amounts we sent, and that was the last try. Call us to verify this account.',
    message: 'Those aren’t the amounts we sent, and that was the last try. Call us to verify this account.',
  }),
  msg({ id: 'Enter the name on the account.', message: 'Enter the name on the account.' }),
  msg({
    id: 'The name on the account must be at most 22 characters.',
    message: 'The name on the account must be at most 22 characters.',
  }),
  msg({ id: 'Enter the 9-digit routing number.', message: 'Enter the 9-digit routing number.' }),
  msg({
    id: 'This routing number isn’t valid. Check it on a cheque or with your bank.',
    message: 'This routing number isn’t valid. Check it on a cheque or with your bank.',
  }),
  msg({
    id: 'Enter the account number: 4 to 17 digits.',
    message: 'Enter the account number: 4 to 17 digits.',
  }),
  msg({ id: 'The account numbers don’t match.', message: 'The account numbers don’t match.' }),
  msg({ id: 'Choose checking or savings.', message: 'Choose checking or savings.' }),
  msg({ id: 'Enter an amount in cents, 1 to 99.', message: 'Enter an amount in cents, 1 to 99.' }),
  msg({
    id: 'There wasn’t enough money in the account.',
    message: 'There wasn’t enough money in the account.',
  }),
  msg({
    id: 'The money in the account wasn’t available yet.',
    message: 'The money in the account wasn’t available yet.',
  }),
  msg({ id: 'The account is closed.', message: 'The account is closed.' }),
  msg({ id: 'The bank couldn’t find the account.', message: 'The bank couldn’t find the account.' }),
  msg({ id: 'The account number isn’t valid.', message: 'The account number isn’t valid.' }),
  msg({ id: 'The account is frozen.', message: 'The account is frozen.' }),
  msg({
    id: 'The account doesn’t allow this kind of payment.',
    message: 'The account doesn’t allow this kind of payment.',
  }),
  msg({ id: 'A stop payment was placed on it.', message: 'A stop payment was placed on it.' }),
  msg({
    id: 'The bank says the account isn’t a business account.',
    message: 'The bank says the account isn’t a business account.',
  }),
  msg({
    id: 'The account holder withdrew the authorization.',
    message: 'The account holder withdrew the authorization.',
  }),
  msg({
    id: 'The account holder told their bank it wasn’t authorized.',
    message: 'The account holder told their bank it wasn’t authorized.',
  }),
  msg({
    id: 'The business told its bank it wasn’t authorized.',
    message: 'The business told its bank it wasn’t authorized.',
  }),
  msg({ id: 'The bank returned the payment.', message: 'The bank returned the payment.' }),
];
