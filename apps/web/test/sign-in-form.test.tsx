import './support/dom.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fireEvent, screen } from '@testing-library/react';
import { SignInForm } from '../src/features/sign-in/sign-in-form.tsx';
import { renderInApp } from './support/render.tsx';

describe('sign-in form', () => {
  it('shows each validation message under its field', async () => {
    renderInApp(<SignInForm />);
    fireEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    await screen.findByText('Email is required.');
    screen.getByText('Password is required.');
    assert.equal(screen.getByLabelText('Email').getAttribute('aria-invalid'), 'true');
  });
});
