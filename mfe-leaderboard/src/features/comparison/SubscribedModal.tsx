/**
 * The newsletter's confirmation, antd's Modal in its own chunk: it loads when a saver starts on
 * the form (with the toasts), not with the comparison. The sign-up counts once the saver opens the
 * link of the confirmation e-mail (double opt-in), so the dialog asks for that.
 */
import { Modal } from 'antd';
import { AntdRoot } from '@yield/ui';

export default function SubscribedModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <AntdRoot>
      <Modal
        open={open}
        title="Successfully Subscribed!"
        onCancel={onClose}
        footer={
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Got it!
          </button>
        }
        centered
      >
        <p>Thank you. We will email you when the rankings change.</p>
        <p>Please confirm from your inbox: open the link in the e-mail we just sent you.</p>
      </Modal>
    </AntdRoot>
  );
}
