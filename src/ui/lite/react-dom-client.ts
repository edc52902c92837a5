import { render, type ComponentChild } from 'preact';

/** React 19's createRoot for the lite build (vite aliases `react-dom/client` here in lite mode). */
export function createRoot(container: Element): { render(tree: ComponentChild): void; unmount(): void } {
  return {
    render: (tree) => render(tree, container),
    unmount: () => render(null, container),
  };
}
