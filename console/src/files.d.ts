/** The style sheet main.tsx imports: esbuild writes it to console.css beside the script. */
declare module '*.css';
