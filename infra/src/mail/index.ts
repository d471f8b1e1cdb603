// Transactional mail: the SMTP transport, the consumer's cursor and rates, the runner.
export * from './mail-runner.js';
export * from './pg-mail-ports.js';
export * from './smtp-transport.js';
