// The email views live in dto/ with every other view; this name stays for email-views.test.ts.
export { emailConfigFromBody, emailConfigView } from '../../dto/email-views'
