import { routeModule } from '../http/route-module.js';
import { borrowerDocumentRoutes } from './routes/borrower-documents.js';

/** The borrower's documents across their loans, and signed ones as PDFs. */
export const documentsModule = routeModule([borrowerDocumentRoutes]);
