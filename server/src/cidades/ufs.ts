/** The federative units live in shared/ (the client shows their names too). */
export { UFS, type Uf } from '../../../shared/ufs';
