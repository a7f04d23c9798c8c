/**
 * antd's Popover for a figure's breakdown, in its own chunk: antd (~260 KB of code and its
 * CSS-in-JS set-up) loads when a saver reaches for a breakdown, not with the comparison.
 */
import type { ReactElement, ReactNode } from 'react';
import { Popover } from 'antd';
import { AntdRoot } from '@yield/ui';

export interface AntdBreakdownPopoverProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  content: ReactNode;
  children: ReactElement;
}

export default function AntdBreakdownPopover({
  open,
  onOpenChange,
  title,
  content,
  children,
}: AntdBreakdownPopoverProps) {
  return (
    <AntdRoot>
      <Popover
        trigger="click"
        open={open}
        onOpenChange={onOpenChange}
        placement="bottom"
        title={title}
        content={content}
      >
        {children}
      </Popover>
    </AntdRoot>
  );
}
