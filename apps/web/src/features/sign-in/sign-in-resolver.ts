import { SignInSchema } from '@customer-core/contracts';
import { zodResolver } from '@hookform/resolvers/zod';

// Loaded apart from the form: zod is not needed until the first validation.
export const signInResolver = zodResolver(SignInSchema);
