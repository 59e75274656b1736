/**
 * A site has one owner: `sites.owner_id`, who also holds the site role `owner`. Before this
 * migration `change-roles` could give the role without naming the owner (a site read "No owner"
 * while someone held the Owner role) or to several users. This puts existing data in step:
 * a site without an owner takes the user holding the role (an owner account; the lowest id when
 * several do), everyone else holding it loses it (keeping the site as a viewer when it was their
 * only role), and the owner holds it.
 */
export const ONE_OWNER_SQL = `
  UPDATE sites SET owner_id = (
    SELECT sa.user_id FROM site_access sa JOIN users u ON u.id = sa.user_id
    WHERE sa.site_id = sites.id AND 'owner' = ANY(sa.roles) AND u.role = 'owner'
    ORDER BY sa.user_id LIMIT 1)
  WHERE owner_id IS NULL
    AND EXISTS (SELECT 1 FROM site_access sa JOIN users u ON u.id = sa.user_id
      WHERE sa.site_id = sites.id AND 'owner' = ANY(sa.roles) AND u.role = 'owner');
  UPDATE site_access sa
  SET roles = CASE WHEN cardinality(array_remove(sa.roles, 'owner')) = 0 THEN ARRAY['viewer']::text[]
    ELSE array_remove(sa.roles, 'owner') END
  FROM sites s
  WHERE s.id = sa.site_id AND 'owner' = ANY(sa.roles) AND sa.user_id IS DISTINCT FROM s.owner_id;
  INSERT INTO site_access (site_id, user_id, roles, access)
  SELECT id, owner_id, ARRAY['owner']::text[], true FROM sites WHERE owner_id IS NOT NULL
  ON CONFLICT (site_id, user_id) DO UPDATE SET roles = CASE
    WHEN 'owner' = ANY(site_access.roles) THEN site_access.roles
    ELSE array_append(site_access.roles, 'owner') END;
`;
