/** The product's business constants and limits. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const MAX_FILE_SIZE = 10 * 1024 * 1024;
export const MOBILE_BREAKPOINT = 768;
export const ADMIN_PAGE_SIZE = 10;
export const DASHBOARD_LIST_SIZE = 5;
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
