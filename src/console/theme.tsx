import { useState } from 'react';

type Theme = 'light' | 'dark';
const KEY = 'tributary-theme';

function shown(): Theme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Light or dark: the system's choice until the operator picks one here (kept in this browser; index.html applies it before the first paint). */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(shown);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="theme-toggle"
      aria-label={`Switch to ${next} mode`}
      onClick={() => {
        document.documentElement.dataset.theme = next;
        localStorage.setItem(KEY, next);
        setTheme(next);
      }}
    >
      {theme === 'dark' ? '☀ Light' : '☾ Dark'}
    </button>
  );
}
