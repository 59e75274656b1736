import { Anchor, type AnchorProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import { type AnchorHTMLAttributes, forwardRef } from 'react';

const MantineAnchor = forwardRef<HTMLAnchorElement, AnchorProps & AnchorHTMLAttributes<HTMLAnchorElement>>(
  function MantineAnchor(props, ref) {
    return <Anchor ref={ref} {...props} />;
  },
);

/** A router link styled as a Mantine anchor, with the router's typed `to` and `params`. */
export const AnchorLink = createLink(MantineAnchor);
