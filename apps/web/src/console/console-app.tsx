import {
  auditEndpoints,
  consoleEndpoints,
  operatorEndpoints,
  webhookEndpoints,
  consoleRoutes,
} from '@customer-core/contracts';
import { Navigate, Route, Routes } from 'react-router';
import { AuditScreen } from './audit/audit-screen';
import { BorrowerScreen } from './borrowers/borrower-screen';
import { BorrowersScreen } from './borrowers/borrowers-screen';
import { LoansScreen } from './loans/loans-screen';
import { ConsoleStepUpProvider } from './session/console-step-up';
import { ConsoleSessionProvider } from './session/console-session-context';
import { AreaGate } from './shell/area-gate';
import { subPath } from './shell/console-areas';
import { ConsoleNotFound } from './shell/console-not-found';
import { ConsoleShell } from './shell/console-shell';
import { RequireStaff } from './shell/require-staff';
import { ConsoleSignInScreen } from './sign-in/console-sign-in-screen';
import { StaffScreen } from './staff/staff-screen';
import { WebhooksScreen } from './webhooks/webhooks-screen';
import './console.css';

// The staff console (/console/...): support agents and loan officers, signed in through the identity
// provider with a second factor, working with the operators' API under their own short session. Loaded
// on its own from app/router.tsx, with its own catalogue (and the portal's, for the factor screens);
// no borrower code imports it.

/** Every page of the console, below its own session, its "Confirm it's you" dialog and its layout. */
export function ConsoleApp() {
  return (
    <ConsoleSessionProvider>
      <ConsoleStepUpProvider>
        <Routes>
          <Route path={subPath(consoleRoutes.signIn)} element={<ConsoleSignInScreen />} />
          <Route
            element={
              <RequireStaff>
                <ConsoleShell />
              </RequireStaff>
            }
          >
            <Route index element={<Navigate to={consoleRoutes.borrowers.path} replace />} />
            <Route path={subPath(consoleRoutes.borrowers)} element={<BorrowersScreen />} />
            <Route path={subPath(consoleRoutes.borrower)} element={<BorrowerScreen />} />
            <Route
              path={subPath(consoleRoutes.loans)}
              element={
                <AreaGate gate={operatorEndpoints.loans}>
                  <LoansScreen />
                </AreaGate>
              }
            />
            <Route
              path={subPath(consoleRoutes.audit)}
              element={
                <AreaGate gate={auditEndpoints.records}>
                  <AuditScreen />
                </AreaGate>
              }
            />
            <Route
              path={subPath(consoleRoutes.webhooks)}
              element={
                <AreaGate gate={webhookEndpoints.endpoints}>
                  <WebhooksScreen />
                </AreaGate>
              }
            />
            <Route
              path={subPath(consoleRoutes.staff)}
              element={
                <AreaGate gate={consoleEndpoints.staffUsers}>
                  <StaffScreen />
                </AreaGate>
              }
            />
            <Route path="*" element={<ConsoleNotFound />} />
          </Route>
        </Routes>
      </ConsoleStepUpProvider>
    </ConsoleSessionProvider>
  );
}
