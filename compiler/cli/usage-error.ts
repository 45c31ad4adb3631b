/** A command's own argument problem found after parsing (a missing directory or file named on the command line): exit 2. */
export class UsageError extends Error {}
