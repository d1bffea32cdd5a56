{-# LANGUAGE TemplateHaskell, DeriveDataTypeable #-}
-- Benchmark 6 (typecheck.md, on lambda.md's types): all well-typed Lambda
-- programs, type checker with parallel conjunction (Cool).
-- Port for lazy-search, to time it run for run beside `bench` (see
-- tools/peers/README.md).
module Main (main) where

import Control.Search
import Data.Typeable
import Common

-- Types, constructors in declaration order (lambda.md).
data Type  = TUnit | TBool | TFun Type Type deriving (Show, Typeable)
data Value = VUnit | VBool Bool deriving (Show, Typeable)
data Expr  = Var Nat
           | Lit Value
           | Lam Type Nat Expr
           | App Expr Expr
           | Let [(Type, Nat, Expr)] Expr
           deriving (Show, Typeable)

deriveEnumerable ''Nat
deriveEnumerable ''Type
deriveEnumerable ''Value
deriveEnumerable ''Expr

type TEnv = [(Nat, Type)]

-- lambda.md helpers -------------------------------------------------------------

-- env: built list of (name, type)
lookupT :: Nat -> TEnv -> Maybe Type
lookupT x env = case env of
  []              -> Nothing
  ((y, t) : rest) -> if eqNat x y then Just t else lookupT x rest

infer :: TEnv -> Expr -> Maybe Type
infer env e = case e of
  Var x       -> lookupT x env
  Lit v       -> case v of { VUnit -> Just TUnit; VBool _ -> Just TBool }
  Lam t x b   -> case infer ((x, t) : env) b of
                   Nothing -> Nothing
                   Just r  -> Just (TFun t r)
  App f _     -> case infer env f of
                   Nothing -> Nothing
                   Just ft -> case ft of { TFun _ r -> Just r; _ -> Nothing }
  Let bs b    -> inferLet env bs b

inferLet :: TEnv -> [(Type, Nat, Expr)] -> Expr -> Maybe Type
inferLet env bs b = case bs of
  []                 -> infer env b
  ((tx, x, _) : rest) -> inferLet ((x, tx) : env) rest b

-- typecheck.md: the checker returning formulas ---------------------------------

eqType :: Type -> Type -> Cool
eqType a b = case a of
  TUnit      -> case b of { TUnit -> true; _ -> false }
  TBool      -> case b of { TBool -> true; _ -> false }
  TFun a1 a2 -> case b of
                  TFun b1 b2 -> And (eqType a1 b1) (eqType a2 b2)
                  _          -> false

hasType :: TEnv -> Expr -> Type -> Cool
hasType env e t = case infer env e of { Nothing -> false; Just t1 -> eqType t1 t }

argOk :: TEnv -> Expr -> Expr -> Cool
argOk env f a = case infer env f of
  Nothing -> false
  Just ft -> case ft of { TFun ta _ -> hasType env a ta; _ -> false }

ok :: TEnv -> Expr -> Cool
ok env e = case e of
  Var x     -> case lookupT x env of { Nothing -> false; Just _ -> true }
  Lit _     -> true
  Lam t x b -> ok ((x, t) : env) b
  App f a   -> And (ok env f) (And (ok env a) (argOk env f a))
  Let bs b  -> And (okBinds bs) (okBody env bs b)

okBinds :: [(Type, Nat, Expr)] -> Cool
okBinds bs = case bs of
  []                  -> true
  ((tx, _, r) : rest) -> And (And (ok [] r) (hasType [] r tx)) (okBinds rest)

-- not a conjunction: walks the list, then checks b
okBody :: TEnv -> [(Type, Nat, Expr)] -> Expr -> Cool
okBody env bs b = case bs of
  []                  -> ok env b
  ((tx, x, _) : rest) -> okBody ((x, tx) : env) rest b

prop :: Expr -> Cool
prop p = ok [] p

main :: IO ()
main = mainWith (\b o -> runAll o b prop) (\_ -> error "ctrex mode not provided for Typecheck")
