import type { WEBHOOK_DELIVERY_STATUSES } from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

type DeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, MessageDescriptor> = {
  pending: msg`Waiting`,
  delivering: msg`Delivering`,
  delivered: msg`Delivered`,
  dead: msg`Gave up`,
};

export const DELIVERY_STATUS_TONES: Record<DeliveryStatus, string> = {
  pending: 'info',
  delivering: 'info',
  delivered: 'good',
  dead: 'bad',
};
