/** Where positions waiting to be sent are kept (localStorage); its own module so the app's first download can check it without the saver. */
export const PENDING_PROGRESS_KEY = 'longbox.progress.pending';
