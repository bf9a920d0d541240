import { i18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';

// The portal in English, from the components' own source messages: the build compiles catalogues
// instead, which node's test runner does not load.
i18n.setMessagesCompiler(compileMessage);
i18n.loadAndActivate({ locale: 'en-US', messages: {} });

export { i18n };
