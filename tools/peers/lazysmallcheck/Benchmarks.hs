-- Benchmarks 2, 3 and 4 of docs/benchmarks (lambda.md, redblack.md,
-- regexp.md; the Rust versions are tools/src/benchmarks/lambda.rs,
-- redblack.rs and regexp.rs), written for Lazy SmallCheck 0.6 as its users
-- write them: the same data types (a `Serial` instance per type, one
-- `consN` per constructor in declaration order; naturals are the spec's
-- Peano `Nat`, tuples are LSC's own free instances), the same programs with
-- the same bugs, and the same properties, in plain lazy Haskell. Each helper
-- follows the spec's reading order (first argument first, `and`/`or` left
-- to right); where the spec's pseudocode is strict, the Haskell is simply
-- lazy, which computes the same predicate and may read less of the input.
-- Built with GHC -O2; `bench NAME` (lambda, redblack, regexp) runs `test`
-- (depth 0, 1, 2, ... until a counterexample, which ends the process) and
-- prints the CPU seconds at exit (Timed.hs; stdout is line buffered, so the depths
-- completed show even when `timeout` kills a run).
module Main (main) where

import Test.LazySmallCheck
import Timed (timedMain)

-- Peano naturals (all three benchmarks) ------------------------------------

data Nat = Z | S Nat deriving (Show)

instance Serial Nat where
  series = cons0 Z \/ cons1 S

-- eqNat(a, b): reads a, then b.
eqNat :: Nat -> Nat -> Bool
eqNat Z b = case b of Z -> True; S _ -> False
eqNat (S a1) b = case b of Z -> False; S b1 -> eqNat a1 b1

-- cmpNat(a, b): reads a, then b.
cmpNat :: Nat -> Nat -> Ordering
cmpNat Z b = case b of Z -> EQ; S _ -> LT
cmpNat (S a1) b = case b of Z -> GT; S b1 -> cmpNat a1 b1

-- ===========================================================================
-- Benchmark 2: Lambda (let removal with a capture bug)

data Type = TUnit | TBool | TFun Type Type deriving (Show)

data Value = VUnit | VBool Bool deriving (Show)

data Expr
  = Var Nat
  | Lit Value
  | Lam Type Nat Expr
  | App Expr Expr
  | Let [(Type, Nat, Expr)] Expr
  deriving (Show)

instance Serial Type where
  series = cons0 TUnit \/ cons0 TBool \/ cons2 TFun

instance Serial Value where
  series = cons0 VUnit \/ cons1 VBool

instance Serial Expr where
  series = cons1 Var \/ cons1 Lit \/ cons3 Lam \/ cons2 App \/ cons2 Let

eqBool :: Bool -> Bool -> Bool
eqBool False q = case q of False -> True; True -> False
eqBool True q = case q of False -> False; True -> True

memberNat :: Nat -> [Nat] -> Bool
memberNat _ [] = False
memberNat x (y : rest) = eqNat x y || memberNat x rest

lookupT :: Nat -> [(Nat, Type)] -> Maybe Type
lookupT _ [] = Nothing
lookupT x ((y, t) : rest) = if eqNat x y then Just t else lookupT x rest

eqType :: Type -> Type -> Bool
eqType TUnit b = case b of TUnit -> True; _ -> False
eqType TBool b = case b of TBool -> True; _ -> False
eqType (TFun a1 a2) b = case b of
  TFun b1 b2 -> eqType a1 b1 && eqType a2 b2
  _ -> False

-- The type checker.

infer :: [(Nat, Type)] -> Expr -> Maybe Type
infer env e = case e of
  Var x -> lookupT x env
  Lit v -> case v of VUnit -> Just TUnit; VBool _ -> Just TBool
  Lam t x b -> case infer ((x, t) : env) b of
    Nothing -> Nothing
    Just r -> Just (TFun t r)
  App f _ -> case infer env f of
    Nothing -> Nothing
    Just ft -> case ft of TFun _ r -> Just r; _ -> Nothing
  Let bs b -> inferLet env bs b

inferLet :: [(Nat, Type)] -> [(Type, Nat, Expr)] -> Expr -> Maybe Type
inferLet env [] b = infer env b
inferLet env ((tx, x, _) : rest) b = inferLet ((x, tx) : env) rest b

hasType :: [(Nat, Type)] -> Expr -> Type -> Bool
hasType env e t = case infer env e of Nothing -> False; Just t1 -> eqType t1 t

argOk :: [(Nat, Type)] -> Expr -> Expr -> Bool
argOk env f a = case infer env f of
  Nothing -> False
  Just ft -> case ft of TFun ta _ -> hasType env a ta; _ -> False

ok :: [(Nat, Type)] -> Expr -> Bool
ok env e = case e of
  Var x -> case lookupT x env of Nothing -> False; Just _ -> True
  Lit _ -> True
  Lam t x b -> ok ((x, t) : env) b
  App f a -> ok env f && (ok env a && argOk env f a)
  Let bs b -> okBinds bs && okBody env bs b

okBinds :: [(Type, Nat, Expr)] -> Bool
okBinds [] = True
okBinds ((tx, _, r) : rest) = (ok [] r && hasType [] r tx) && okBinds rest

okBody :: [(Nat, Type)] -> [(Type, Nat, Expr)] -> Expr -> Bool
okBody env [] b = ok env b
okBody env ((tx, x, _) : rest) b = okBody ((x, tx) : env) rest b

wellTyped :: Expr -> Bool
wellTyped = ok []

-- The evaluator.

data RV = RUnit | RBool Bool | RFun Nat Expr [(Nat, RV)] | RErr

lookupV :: Nat -> [(Nat, RV)] -> RV
lookupV _ [] = RErr
lookupV x ((y, v) : rest) = if eqNat x y then v else lookupV x rest

eval :: [(Nat, RV)] -> Expr -> RV
eval env e = case e of
  Var x -> lookupV x env
  Lit v -> case v of VUnit -> RUnit; VBool b -> RBool b
  Lam _ x b -> RFun x b env
  App f a -> case eval env f of
    RFun x b cenv -> let va = eval env a in eval ((x, va) : cenv) b
    _ -> RErr
  Let bs b -> evalLet env bs b

evalLet :: [(Nat, RV)] -> [(Type, Nat, Expr)] -> Expr -> RV
evalLet env [] b = eval env b
evalLet env ((_, x, r) : rest) b = let v = eval [] r in evalLet ((x, v) : env) rest b

eqRV :: RV -> RV -> Bool
eqRV RUnit b = case b of RUnit -> True; _ -> False
eqRV (RBool p) b = case b of RBool q -> eqBool p q; _ -> False
eqRV RFun {} b = case b of RFun {} -> True; _ -> False
eqRV RErr b = case b of RErr -> True; _ -> False

-- Let removal (the code under test).

removeLets :: Expr -> Expr
removeLets e = case e of
  Var x -> Var x
  Lit v -> Lit v
  Lam t x b -> Lam t x (removeLets b)
  App f a -> App (removeLets f) (removeLets a)
  Let bs b -> let s = buildSub [] bs in removeLets (applySub s [] b)

buildSub :: [(Nat, Expr)] -> [(Type, Nat, Expr)] -> [(Nat, Expr)]
buildSub acc [] = acc
buildSub acc ((_, x, r) : rest) = buildSub ((x, r) : acc) rest

lookupSub :: Nat -> [(Nat, Expr)] -> Maybe Expr
lookupSub _ [] = Nothing
lookupSub y ((x, r) : rest) = if eqNat y x then Just r else lookupSub y rest

-- The BUGGY `Let` line: the inner let's binders are not added to `bound`.
applySub :: [(Nat, Expr)] -> [Nat] -> Expr -> Expr
applySub s bound e = case e of
  Var y ->
    if memberNat y bound
      then Var y
      else case lookupSub y s of
        Nothing -> Var y
        Just r -> r
  Lit v -> Lit v
  Lam t y b -> Lam t y (applySub s (y : bound) b)
  App f a -> App (applySub s bound f) (applySub s bound a)
  Let bs b -> Let bs (applySub s bound b)

lambdaProp :: Expr -> Bool
lambdaProp p = wellTyped p ==> eqRV (eval [] p) (eval [] (removeLets p))

-- ===========================================================================
-- Benchmark 3: RedBlack (Okasaki insertion with a balance bug)

data Colour = R | B deriving (Show)

data Tree = E | T Colour Tree Nat Tree deriving (Show)

instance Serial Colour where
  series = cons0 R \/ cons0 B

instance Serial Tree where
  series = cons0 E \/ cons4 T

leNat :: Nat -> Nat -> Bool
leNat a b = case cmpNat a b of GT -> False; _ -> True

isRed :: Colour -> Bool
isRed R = True
isRed B = False

-- `T(k, p, q, s) where isRed(k)`: the constructor, then the colour.
redNode :: Tree -> Maybe (Tree, Nat, Tree)
redNode (T k p q s) | isRed k = Just (p, q, s)
redNode _ = Nothing

insert :: Nat -> Tree -> Tree
insert x t = case ins x t of
  T _ a y b -> T B a y b
  E -> E

ins :: Nat -> Tree -> Tree
ins x t = case t of
  E -> T R E x E
  T c a y b -> case cmpNat x y of
    LT -> balance c (ins x a) y b
    GT -> balance c a y (ins x b)
    EQ -> T c a y b

-- The BUGGY case 3: b and c swapped.
balance :: Colour -> Tree -> Nat -> Tree -> Tree
balance col l v r = case col of
  R -> T R l v r
  B -> leftCases
  where
    leftCases = case l of
      E -> rightCases
      T lc ll lv lr -> case lc of
        B -> rightCases
        R -> case redNode ll of
          Just (a, x, b) -> T R (T B a x b) lv (T B lr v r)
          Nothing -> case redNode lr of
            Just (b, y, c) -> T R (T B ll lv b) y (T B c v r)
            Nothing -> rightCases
    rightCases = case r of
      E -> T B l v r
      T rc rl rv rr -> case rc of
        B -> T B l v r
        R -> case redNode rl of
          Just (b, y, c) -> T R (T B l v c) y (T B b rv rr)
          Nothing -> case redNode rr of
            Just (c, z, d) -> T R (T B l v rl) rv (T B c z d)
            Nothing -> T B l v r

within :: Maybe Nat -> Maybe Nat -> Tree -> Bool
within _ _ E = True
within lo hi (T _ a x b) =
  above lo x && below hi x && within lo (Just x) a && within (Just x) hi b

above :: Maybe Nat -> Nat -> Bool
above lo x = case lo of Nothing -> True; Just m -> leNat m x

below :: Maybe Nat -> Nat -> Bool
below hi x = case hi of Nothing -> True; Just m -> leNat x m

ordered :: Tree -> Bool
ordered = within Nothing Nothing

blackOK :: Tree -> Bool
blackOK t = case bh t of Nothing -> False; Just _ -> True

bh :: Tree -> Maybe Int
bh E = Just 0
bh (T c a _ b) = case bh a of
  Nothing -> Nothing
  Just n -> case bh b of
    Nothing -> Nothing
    Just m ->
      if n == m
        then (case c of R -> Just n; B -> Just (n + 1))
        else Nothing

redOK :: Tree -> Bool
redOK E = True
redOK (T c a _ b) =
  (case c of R -> blackRoot a && blackRoot b; B -> True) && redOK a && redOK b

blackRoot :: Tree -> Bool
blackRoot E = True
blackRoot (T c _ _ _) = case c of R -> False; B -> True

invariant :: Tree -> Bool
invariant t = ordered t && blackOK t && redOK t

redblackProp :: (Nat, Tree) -> Bool
redblackProp (x, t) = invariant t ==> invariant (insert x t)

-- ===========================================================================
-- Benchmark 4: RegExp (repetition does not distribute over intersection)

data RE
  = Atom [Nat]
  | Or RE RE
  | Seq RE RE
  | And RE RE
  | Star RE
  | Eps
  deriving (Show)

instance Serial RE where
  series = cons1 Atom \/ cons2 Or \/ cons2 Seq \/ cons2 And \/ cons1 Star \/ cons0 Eps

accepts :: RE -> [Nat] -> Bool
accepts re s = case re of
  Atom w -> matchWord w s
  Or a b -> accepts a s || accepts b s
  Seq a b -> splitSeq a b [] s
  And a b -> accepts a s && accepts b s
  Star a -> case s of
    [] -> True
    c : cs -> splitStar a [c] cs
  Eps -> case s of [] -> True; _ -> False

matchWord :: [Nat] -> [Nat] -> Bool
matchWord [] s = case s of [] -> True; _ -> False
matchWord (c : cs) s = case s of
  [] -> False
  d : ds -> eqNat c d && matchWord cs ds

splitSeq :: RE -> RE -> [Nat] -> [Nat] -> Bool
splitSeq a b pre rest =
  (accepts a pre && accepts b rest)
    || ( case rest of
           [] -> False
           c : cs -> splitSeq a b (pre ++ [c]) cs
       )

splitStar :: RE -> [Nat] -> [Nat] -> Bool
splitStar a pre rest =
  (accepts a pre && accepts (Star a) rest)
    || ( case rest of
           [] -> False
           c : cs -> splitStar a (pre ++ [c]) cs
       )

rep :: Nat -> RE -> RE
rep i r = case i of
  Z -> Eps
  S j -> Seq r (rep j r)

monus :: Nat -> Nat -> Nat
monus a b = case b of
  Z -> a
  S b1 -> case a of
    Z -> Z
    S a1 -> monus a1 b1

repBetween :: Nat -> Nat -> RE -> RE
repBetween lo hi r = go lo (monus hi lo)
  where
    go i d = case d of
      Z -> rep i r
      S d1 -> let h = rep i r in Or h (go (S i) d1)

iff :: Bool -> Bool -> Bool
iff a b = case a of True -> b; False -> not b

regexpProp :: (Nat, Nat, RE, RE, [Nat]) -> Bool
regexpProp (n, k, p, q, s) =
  iff
    (accepts (repBetween n k (And p q)) s)
    (accepts (And (repBetween n k p) (repBetween n k q)) s)

-- The driver ---------------------------------------------------------------

main :: IO ()
main = timedMain run
  where
    run "lambda" = test lambdaProp
    run "redblack" = test redblackProp
    run "regexp" = test regexpProp
    run other = error ("no property " ++ other)
