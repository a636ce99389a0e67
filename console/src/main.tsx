import { render } from 'preact';
import './console.css';
import { pageConfig } from './config.ts';
import { Console } from './shell.tsx';

render(<Console config={pageConfig()} />, document.getElementById('console')!);
