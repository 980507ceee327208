import '@vitejs/plugin-react/preamble';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AdminApp } from './app.tsx';
import './admin.module.css';

/** The back office's entry (decision 133): a single-page app under /admin. */
const root = document.getElementById('admin-root');
if (root) {
  const client = new QueryClient({
    defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
  });
  root.textContent = '';
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={client}>
        <BrowserRouter basename="/admin">
          <AdminApp />
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}
