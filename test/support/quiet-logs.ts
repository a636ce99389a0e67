// Tests without the stack log nothing unless asked (LOG_LEVEL=INFO npm run test:unit shows the lines).
process.env.LOG_LEVEL ??= 'SILENT';
