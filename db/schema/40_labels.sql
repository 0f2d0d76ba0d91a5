-- Labels of enumerated fields: one table per enumeration, names as the game's own code
-- spells them (docs/enumerations.md). Join `label_X.value = column` to print a label beside a
-- number; the v_ views (db/columns.h) do it as `<column>_label`. A value without a row is
-- one no source names (an anomaly, or a state added by MP2).

-- events.kind: which list of an EVNT / event set the node came from (FORMATS 5.2, 5.4).
CREATE TABLE label_event_kind (
    value TEXT PRIMARY KEY,          -- events.kind
    label TEXT NOT NULL,             -- the game's node class
    meaning TEXT
) WITHOUT ROWID;
INSERT INTO label_event_kind VALUES
    ('bool', 'BoolPOINode', 'base + bool8 value (older name: loop events)'),
    ('int32', 'Int32POINode', 'base + s32 value + locator name (older name: user events)'),
    ('particle', 'ParticlePOINode', 'base + particle effect to spawn (older name: effect events)'),
    ('sound', 'SoundPOINode', 'base + sound to play (EVNT version 2 and up)');

-- events.poi_type: EPOIType (FORMATS 5.3; 3 is unused).
CREATE TABLE label_poi_type (
    value INTEGER PRIMARY KEY,       -- events.poi_type
    label TEXT NOT NULL,             -- EPOIType name
    meaning TEXT                     -- the node kind that normally carries it
);
INSERT INTO label_poi_type VALUES
    (0, 'Loop', 'bool node'),
    (1, 'EmptyBool', 'bool node'),
    (2, 'EmptyInt32', 'int32 node'),
    (4, 'SoundInt32', 'int32 node (value = sound ID)'),
    (5, 'Particle', 'particle node'),
    (6, 'UserEvent', 'int32 node (value = user-event enum)'),
    (7, 'RandRate', 'int32 node'),
    (8, 'Sound', 'sound node');

-- events.parented_mode and effect_components.parented_mode: EParentedMode (FORMATS 4.8).
CREATE TABLE label_parented_mode (
    value INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    meaning TEXT
);
INSERT INTO label_parented_mode VALUES
    (0, 'Initial', NULL),
    (1, 'ContinuousEmitter', NULL),
    (2, 'ContinuousSystem', NULL);

-- pas_parms.parm_type: EParmType (FORMATS 4.5); decides how min/max and values are typed.
CREATE TABLE label_parm_type (
    value INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    meaning TEXT
);
INSERT INTO label_parm_type VALUES
    (-1, 'None', 'never in files'),
    (0, 'Int32', 's32, 4 bytes'),
    (1, 'UInt32', 'u32, 4 bytes'),
    (2, 'Float', 'f32 (Real32), 4 bytes'),
    (3, 'Bool', 'bool8, 1 byte'),
    (4, 'Enum', 's32, 4 bytes');

-- pas_parms.weight_function: EWeightFunction (FORMATS 4.5).
CREATE TABLE label_weight_function (
    value INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    meaning TEXT
);
INSERT INTO label_weight_function VALUES
    (-1, 'Invalid', 'not in files'),
    (0, 'ExactMatch', '1 if the requested value equals the stored one, else 0'),
    (1, 'PercentError', '1 - |requested - stored| / (max - min)'),
    (2, 'AngularPercent', 'like PercentError, wrapping around the range (angles)'),
    (3, 'NoWeight', 'parameter ignored');

-- pas_states.state_type and characters.pas_default_state: EAnimationState (FORMATS 4.5;
-- MP1 names, MP2 may add states).
CREATE TABLE label_anim_state (
    value INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    meaning TEXT
);
INSERT INTO label_anim_state VALUES
    (-1, 'Invalid', 'no states (default_anim_state only)'),
    (0, 'Fall', NULL), (1, 'Getup', NULL), (2, 'LieOnGround', NULL), (3, 'Step', NULL),
    (4, 'Death', NULL), (5, 'Locomotion', NULL), (6, 'KnockBack', NULL),
    (7, 'MeleeAttack', NULL), (8, 'Turn', NULL), (9, 'LoopAttack', NULL),
    (10, 'LoopReaction', NULL), (11, 'GroundHit', NULL), (12, 'Generate', NULL),
    (13, 'Jump', NULL), (14, 'Hurled', NULL), (15, 'Slide', NULL), (16, 'Taunt', NULL),
    (17, 'Scripted', NULL), (18, 'ProjectileAttack', NULL), (19, 'Cover', NULL),
    (20, 'WallHang', NULL), (21, 'AdditiveIdle', NULL), (22, 'AdditiveAim', NULL),
    (23, 'AdditiveFlinch', NULL), (24, 'AdditiveReaction', NULL);

-- animations.meta_type and meta_anim_nodes.type: EMetaAnimType (FORMATS 4.12).
CREATE TABLE label_meta_anim_type (
    value INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    meaning TEXT
);
INSERT INTO label_meta_anim_type VALUES
    (0, 'Play', 'plays one ANIM (a primitive)'),
    (1, 'Blend', 'blends two trees by blend_weight'),
    (2, 'PhaseBlend', 'blends two trees, phase-matched'),
    (3, 'Random', 'picks one child by cumulative probability'),
    (4, 'Sequence', 'plays its children one after another');

-- transitions/half_transitions.trans_type and ancs.default_trans_type: EMetaTransType
-- (FORMATS 4.14).
CREATE TABLE label_meta_trans_type (
    value INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    meaning TEXT
);
INSERT INTO label_meta_trans_type VALUES
    (0, 'MetaAnim', 'plays a meta-animation in between (WIKI: Animation)'),
    (1, 'Trans', 'blends over duration (WIKI: Transition)'),
    (2, 'PhaseTrans', 'phase-matched blend over duration'),
    (3, 'Snap', 'switches at once (MF-DNA: NoTrans)');

-- CharAnimTime type (every *time_type / duration_type column): CCharAnimTime::EType
-- (FORMATS 1.2; RDS calls it differential_state).
CREATE TABLE label_time_type (
    value INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    meaning TEXT
);
INSERT INTO label_time_type VALUES
    (0, 'NonZero', 'ordinary time value'),
    (1, 'ZeroIncreasing', 'zero approached from above (0+)'),
    (2, 'ZeroSteady', 'exact zero'),
    (3, 'ZeroDecreasing', 'zero approached from below (0-)'),
    (4, 'Infinity', 'infinite, sign in time');
