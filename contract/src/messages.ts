/**
 * Every user-facing text that both sides must agree on, written once. Spec wording is kept
 * verbatim, typos included ("atleast", "Sucess", "This your listing"), because the spec is the
 * source of truth for wording.
 */
export const MESSAGES = {
  // Accounts: validation (spec §5)
  giveAllDetails: 'Please give all details',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 128 characters',
  newPasswordTooShort: 'New Password has to be atleast 8 characters',
  passwordTooCommon: 'This password is too common. Choose one that is harder to guess.',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  nameTooLong: 'Names can be at most 60 characters',
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email address',
  codeRequired: 'Enter the 6-digit code from the email',
  codeInvalidFormat: 'The code is the 6-digit number from the email',
  currentPasswordRequired: 'Enter your current password',

  // Accounts: server answers (spec §7, §8)
  signUpSuccess: 'Account created. Check your email for the code.',
  emailAlreadyRegistered: 'An account with this email already exists. Log in or reset your password.',
  verifyFailed: 'Verification Failed: Incorrect Code or code expired',
  verifyTooManyTries: 'Too many wrong tries. Request a new code.',
  verified: 'Verified!',
  codeResent: 'If this email has an account waiting for verification, a new code is on its way.',
  alreadyVerified: 'This email is already verified. You can log in.',
  loginIncorrect: 'Login failed: Incorrect Credentials',
  loginUnverified: 'Verify your email first: enter the code we sent you, or ask for a new one.',
  passwordResetDone: 'Password Change Successful',
  resetCodeInvalid: 'Incorrect code or code expired. Request a new code.',
  passwordChanged: 'Changed password',
  currentPasswordWrong: 'Your current password is not correct',
  samePassword: 'The new password must be different from the current one',
  unauthorized: 'Please log in to continue',
  forbidden: 'You are not allowed to do that',
  rateLimited: 'Too many attempts. Please wait a moment and try again.',
  notFound: 'Not found',
  userNotFound: 'No such student',
  serverError: 'Something went wrong on our side. Please try again.',
  badJson: 'The request body is not valid JSON',

  // Accounts: web toasts (spec §8)
  creatingUser: 'Creating User',
  sendingCode: 'Sending Verification code!',
  signUpFailed: 'Sign up failed. Please try again.',
  signUpFailedLater: 'SignUp Failed: Please try again Later.',
  loginFailedLater: 'Login failed. Please try again later.',
  verifyFailedLater: 'Verification Failed: Please try again Later.',
  resetSending: 'Sending verification code...',
  resetCodeSent: 'Verification Code sent to registered email',
  resetDone: 'Password has been Reset',
  failedToSendCode: (msg: string) => `Failed to send code: ${msg}`,
  updateSuccess: 'Update Sucess: Password updated successfully',
  updateFailed: (msg: string) => `Update Failed: ${msg}`,

  // Listings (spec §5, §7, §8)
  listingCreated: 'New listing created',
  listingRequiredFields: 'Please be sure to attach all required fields',
  listingUploadError: 'There has been an error in upload. Make sure to attach all required fields.',
  descriptionTooLong: 'Description can be at most 900 characters',
  listingNameTooLong: 'Name can be at most 120 characters',
  priceInvalid: 'Price must be a number of dollars with at most 2 decimals, like 12.50',
  priceTooHigh: 'Price can be at most $100,000',
  categoryInvalid:
    'Choose one of the categories: BOOKS, ELECTRONICS, LIFESTYLE, EVENTS, SERVICES, CLOTHING, OTHER',
  listingNotFound: 'This listing does not exist or was deleted',
  notYourListing: 'Only the seller can change this listing',
  deleteConfirm: 'This action is permanent. Delete listing?',
  allListingsEmpty: 'All the good stuff was just snapped up! Come back soon.',
  categoryEmpty:
    'All the good stuff was just snapped up! New listings arrive all the time—check back soon or be the first to create one.',
  personalEmpty: 'You have no listings yet, you can create one by clicking on the sell option.',
  ownListing: 'This your listing',
  viewOwnListings: 'Click here to view all your listings.',
  invalidCursor: 'The page cursor is not valid. Start again from the first page.',
  invalidLimit: 'limit must be a whole number between 1 and 100',
  invalidPriceFilter: 'priceMin and priceMax must be non-negative numbers, with priceMin ≤ priceMax',

  // Images
  imageTooLarge: 'The image is larger than 10 MB. Choose a smaller photo.',
  imageNotJpeg: 'Only JPG/JPEG photos can be uploaded',
  imageUnreadable: 'This photo could not be read. It may be damaged; try another one.',
  imageTooManyPixels: 'This photo has too many pixels. Choose a smaller one.',
  noFileUploaded: 'No File Uploaded',
  uploadingImage: 'Uploading image...',
  imageUploaded: 'Image uploaded successfully!',

  // Chat (spec §5, §8)
  chatEmpty: 'No chats yet.',
  chatRoomForbidden: 'You are not part of this conversation',
  chatNoHistory: 'No messages in this conversation yet',
  chatSelf: 'You cannot chat with yourself about your own listing',
  chatContentRequired: 'Type a message or attach a photo',
  chatContentTooLong: 'A message can be at most 2000 characters',
  chatImageNotOurs: 'Attach photos with the upload button',
  chatListingRequired: 'Choose which listing this conversation is about',
  notConnected: 'There is no underlying STOMP connection',
} as const;
